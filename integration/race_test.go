//go:build race

package integration

// raceEnabled builds the server under test with the race detector too, so a data race
// in the server fails the integration tests that provoke it.
const raceEnabled = true
