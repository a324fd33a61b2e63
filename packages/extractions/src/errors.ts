/**
 * What the lifecycle's use cases refuse, in their own terms. The API maps each to its HTTP
 * answer in one place (apps/api/src/http/errors/error-handler.ts); other callers (tests, tools) read
 * them as they are.
 */
export class ExtractionNotFound extends Error {
  constructor(message = 'Extraction not found.') {
    super(message);
    this.name = 'ExtractionNotFound';
  }
}

/** The create named a schema this account does not have (the field is `schema_id`). */
export class UnknownSchema extends Error {
  readonly field = 'schema_id';
  constructor() {
    super('schema_id does not name a schema of this account');
    this.name = 'UnknownSchema';
  }
}

/** A split class named a schema this account does not have (docs/split.md). */
export class UnknownSplitSchema extends Error {
  readonly field: string;
  constructor(readonly index: number) {
    const field = `split.classes[${index}].schema_id`;
    super(`${field} does not name a schema of this account`);
    this.field = field;
    this.name = 'UnknownSplitSchema';
  }
}

/** The account already has `limit` extractions pending or processing (its fair-use bound). */
export class TooManyActive extends Error {
  constructor(readonly limit: number) {
    super(
      `This account already has ${limit} extractions pending or processing, the most allowed at once; retry once some have finished.`,
    );
    this.name = 'TooManyActive';
  }
}

/** A review the extraction cannot take as given: each problem names its request field. */
export class ReviewRefused extends Error {
  constructor(readonly fields: { field: string; message: string }[]) {
    super(fields.map((f) => `${f.field}: ${f.message}`).join('; '));
    this.name = 'ReviewRefused';
  }
}

/** The extraction was reviewed already (by another request, perhaps at the same moment). */
export class AlreadyReviewed extends Error {
  constructor(readonly status: string) {
    super(`This extraction was already reviewed (${status}); a review is decided once.`);
    this.name = 'AlreadyReviewed';
  }
}
