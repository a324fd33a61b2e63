export { SYSTEM_PACKAGES, packagesFor, type Purpose, type SystemPackage } from './catalogue.ts';
export { ensureSystemPackages, SystemPackagesMissing } from './ensure.ts';
export { planInstall, type InstallPlan, type Privilege } from './plan.ts';
