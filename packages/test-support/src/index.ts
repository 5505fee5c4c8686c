export { bundleChild, cleanupChildren, killChildren, killed, removeBundles, startChild, type BundleChildOptions, type StartedChild } from './child-process.js';
export { connectPerson, once, personAtHost, seamWithAgent, TEST_TOKEN, type ConnectPersonOptions, type Person, type PersonAtHostOptions, type PersonClient } from './person.js';
