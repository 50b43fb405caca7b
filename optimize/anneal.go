package optimize

import (
	"context"
	"math"
	"math/rand/v2"
)

// annealPeriod is how often, in moves, a chain looks at its context.
const annealPeriod = 4096

// chain is one chain of simulated annealing over states of type S, the one
// loop of the package's four searches (anneal, annealPenalty, annealChain
// and searchFlow): at every step it proposes a neighbour of the state it
// holds and takes it by the Metropolis rule, while the temperature falls
// geometrically from t0 at the first step towards t1 at the last. The
// searches differ in their states, moves and energies and in what they keep
// of the states the chain takes (took), not in the loop.
type chain[S any] struct {
	// t0 and t1 are the temperature at the first step and the one the
	// schedule falls towards; steps is the number of steps of the chain.
	t0, t1 float64
	steps  int
	// relative makes the rule weigh a rise of energy as a fraction of the
	// energy held, for energies of no fixed scale: a rise d is taken with
	// probability e^(−d/T), d being e − cur, or (e − cur) / cur when
	// relative.
	relative bool
	// check is called before each step with the steps done; an error it
	// returns ends the chain with that error. It looks at the context.
	check func(done int) error
	// propose returns a neighbour of cur, which it may build in spare (a
	// state the chain no longer holds), and the steps it spent, at most
	// left. ok false says that it found no neighbour the chain may take
	// (the steps are spent all the same), spent 0 that none will turn up:
	// the chain then ends.
	propose func(cur, spare S, left int, rng *rand.Rand) (trial S, spent int, ok bool, err error)
	// energy is what the chain lowers.
	energy func(S) (float64, error)
	// took, when not nil, is called with each state the chain takes and
	// its energy, in the order it takes them.
	took func(s S, e float64)
}

// run runs the chain from cur, with spare a second state that propose may
// build in, drawing its moves and its choices from rng, and returns the
// state it holds at the end.
func (c *chain[S]) run(cur, spare S, rng *rand.Rand) (S, error) {
	curE, err := c.energy(cur)
	if err != nil {
		return cur, err
	}
	for done := 0; done < c.steps; {
		if err := c.check(done); err != nil {
			return cur, err
		}
		temp := c.t0 * math.Pow(c.t1/c.t0, float64(done)/float64(c.steps))
		trial, spent, ok, err := c.propose(cur, spare, c.steps-done, rng)
		if err != nil {
			return cur, err
		}
		if spent == 0 {
			break
		}
		done += spent
		if !ok {
			continue
		}
		e, err := c.energy(trial)
		if err != nil {
			return cur, err
		}
		d := e - curE
		if c.relative {
			d /= curE
		}
		if d > 0 && rng.Float64() >= math.Exp(-d/temp) {
			continue
		}
		cur, spare, curE = trial, cur, e
		if c.took != nil {
			c.took(cur, e)
		}
	}
	return cur, nil
}

// everyPeriod returns the check of the chains on the span grid: before
// every annealPeriod-th step it returns ctx's error as it is (runChains
// names the package).
func everyPeriod(ctx context.Context) func(done int) error {
	return func(done int) error {
		if done%annealPeriod == 0 {
			return ctx.Err()
		}
		return nil
	}
}

// moveFrom makes g one of move's moves away from cur and reports whether
// the move changed it and, when within is not nil, within says the chain
// may take it (within is not asked when the move changed nothing).
func (g *graph) moveFrom(cur *graph, rng *rand.Rand, within func(*graph) bool) bool {
	g.copyFrom(cur)
	return g.move(rng) && (within == nil || within(g))
}

// bounded returns the within of moveFrom that keeps a graph within the
// depth bound and, when maxFanout > 0, the fan-out bound.
func bounded(maxDepth, maxFanout int) func(*graph) bool {
	return func(g *graph) bool {
		_, _, ok := g.eval(maxDepth, maxFanout)
		return ok
	}
}

// oneStep returns the propose of a chain whose every move is one step:
// move makes spare a neighbour of cur and reports whether the chain may
// take it.
func oneStep[S any](move func(cur, spare S, rng *rand.Rand) bool) func(cur, spare S, left int, rng *rand.Rand) (S, int, bool, error) {
	return func(cur, spare S, _ int, rng *rand.Rand) (S, int, bool, error) {
		return spare, 1, move(cur, spare, rng), nil
	}
}

// annealBudget returns the steps of each annealing chain (opt.Steps, or
// perInput steps an input of the width when it is 0) and the chains
// (opt.Chains, or DefaultChains); ok is false where no chain runs: negative
// steps, or a width below 3 or above MaxAnnealWidth.
func (opt Options) annealBudget(perInput int) (steps, chains int, ok bool) {
	n := opt.Width
	steps = opt.Steps
	if steps == 0 {
		steps = perInput * n
	}
	if steps < 0 || n < 3 || n > MaxAnnealWidth {
		return 0, 0, false
	}
	chains = opt.Chains
	if chains <= 0 {
		chains = DefaultChains
	}
	return steps, chains, true
}
