// What the global setup hands every test file through vitest's provide/inject.
declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseAdminUrl: string;
    testTemplateDatabase: string;
    testRedisUrl: string;
  }
}

export {};
