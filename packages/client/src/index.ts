// Public surface: filled in by the package work.
export {};
