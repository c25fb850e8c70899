"""The pure Bohnanza rules engine: no I/O, no clock, randomness only from a generator passed in."""
