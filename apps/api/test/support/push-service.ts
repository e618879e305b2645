// The loopback push service moved to the test kit, so a worker's tests use it too.
export * from '@fanpilot/testkit';
