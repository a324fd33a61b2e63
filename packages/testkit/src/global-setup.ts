// Placeholder until the shared test infrastructure lands: lets unit tests run now.
export default function setup(): void {}
