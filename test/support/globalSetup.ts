// One set of real local services per test run (started lazily as the suite grows).
export default function setup(): void {}
