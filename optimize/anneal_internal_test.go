package optimize

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walkChain is a chain over the integers whose energy is the distance from
// zero; every step it takes is recorded in took.
func walkChain(t0, t1 float64, steps int, took *[]int) chain[int] {
	return chain[int]{
		t0: t0, t1: t1, steps: steps,
		check:  func(int) error { return nil },
		energy: func(x int) (float64, error) { return float64(max(x, -x)), nil },
		took:   func(x int, _ float64) { *took = append(*took, x) },
	}
}

// TestChainRule checks the Metropolis rule of the one loop: cold, a chain
// takes no step that raises its energy; hot, it takes nearly every step;
// and it hands propose the state it holds and the steps it has left.
func TestChainRule(t *testing.T) {
	var took []int
	c := walkChain(1e-9, 1e-9, 200, &took)
	c.propose = func(cur, _ int, _ int, rng *rand.Rand) (int, int, bool, error) {
		return cur + 2*rng.IntN(2) - 1, 1, true, nil
	}
	end, err := c.run(10, 0, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	assert.Zero(t, end, "a cold chain walks down to zero and stays there")
	for i := 1; i < len(took); i++ {
		assert.LessOrEqual(t, max(took[i], -took[i]), max(took[i-1], -took[i-1]), "cold, no step up")
	}

	took = nil
	c = walkChain(1e9, 1e9, 200, &took)
	c.propose = func(cur, _ int, _ int, _ *rand.Rand) (int, int, bool, error) {
		return cur + 1, 1, true, nil
	}
	end, err = c.run(0, 0, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	assert.Equal(t, 200, end, "a hot chain takes every step up")
	assert.Len(t, took, 200)

	// Relative: a rise of 1 % at T = 0.01 is taken with probability 1/e,
	// the same rise in absolute terms (d = 1 at energy 100) never.
	for _, relative := range []bool{false, true} {
		taken := 0
		c := chain[int]{
			t0: 0.01, t1: 0.01, relative: relative,
			check:   func(int) error { return nil },
			propose: func(cur, _ int, _ int, _ *rand.Rand) (int, int, bool, error) { return 101, 1, true, nil },
			energy:  func(x int) (float64, error) { return float64(x), nil },
			took:    func(int, float64) { taken++ },
		}
		// Every step is weighed from 100: the chain is restarted there.
		rng := rand.New(rand.NewPCG(3, 7))
		for range 100 {
			c.steps = 1
			_, err := c.run(100, 0, rng)
			require.NoError(t, err)
		}
		if relative {
			assert.InDelta(t, 37, taken, 15)
		} else {
			assert.Zero(t, taken)
		}
	}
}

// TestChainSteps checks the steps of the loop: check is called before each
// step with the steps done, propose is handed the steps left and may spend
// several, a step it finds nothing in is spent all the same, and spent 0
// ends the chain early.
func TestChainSteps(t *testing.T) {
	var checked, lefts []int
	proposals := 0
	c := chain[int]{
		t0: 1, t1: 1, steps: 10,
		check: func(done int) error { checked = append(checked, done); return nil },
		propose: func(cur, _ int, left int, _ *rand.Rand) (int, int, bool, error) {
			lefts = append(lefts, left)
			proposals++
			return cur - 1, min(3, left), proposals%2 == 1, nil
		},
		energy: func(x int) (float64, error) { return float64(x), nil },
	}
	end, err := c.run(0, 0, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	assert.Equal(t, []int{0, 3, 6, 9}, checked)
	assert.Equal(t, []int{10, 7, 4, 1}, lefts)
	assert.Equal(t, -1-1, end, "the first and third proposals taken, the others not")

	proposals = 0
	c.propose = func(cur, _ int, _ int, _ *rand.Rand) (int, int, bool, error) {
		proposals++
		return cur, 0, false, nil
	}
	_, err = c.run(0, 0, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	assert.Equal(t, 1, proposals, "spent 0 ends the chain")

	// oneStep: the move is made in spare, and spends one step.
	p := oneStep(func(cur, spare int, _ *rand.Rand) bool { return cur < spare })
	trial, spent, ok, err := p(1, 2, 9, nil)
	require.NoError(t, err)
	assert.Equal(t, []any{2, 1, true}, []any{trial, spent, ok})
}

// TestChainErrors checks that an error of check, propose or energy ends
// the chain with that error, and that the chains on the span grid look at
// their context before the first step and every annealPeriod steps.
func TestChainErrors(t *testing.T) {
	boom := errors.New("boom")
	base := func() chain[int] {
		return chain[int]{
			t0: 1, t1: 1, steps: 5,
			check:   func(int) error { return nil },
			propose: func(cur, _ int, _ int, _ *rand.Rand) (int, int, bool, error) { return cur + 1, 1, true, nil },
			energy:  func(x int) (float64, error) { return float64(x), nil },
		}
	}
	c := base()
	c.check = func(done int) error {
		if done == 2 {
			return boom
		}
		return nil
	}
	_, err := c.run(0, 0, rand.New(rand.NewPCG(1, 2)))
	assert.ErrorIs(t, err, boom)
	c = base()
	c.propose = func(int, int, int, *rand.Rand) (int, int, bool, error) { return 0, 0, false, boom }
	_, err = c.run(0, 0, rand.New(rand.NewPCG(1, 2)))
	assert.ErrorIs(t, err, boom)
	c = base()
	c.energy = func(x int) (float64, error) {
		if x == 1 {
			return 0, boom
		}
		return float64(x), nil
	}
	_, err = c.run(0, 0, rand.New(rand.NewPCG(1, 2)))
	assert.ErrorIs(t, err, boom)

	ctx, cancel := context.WithCancel(context.Background())
	check := everyPeriod(ctx)
	assert.NoError(t, check(0))
	cancel()
	assert.ErrorIs(t, check(0), context.Canceled)
	assert.NoError(t, check(1), "between periods the context is not looked at")
	assert.ErrorIs(t, check(annealPeriod), context.Canceled)
}
