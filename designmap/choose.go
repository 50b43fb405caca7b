package designmap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/optimize"
	"github.com/prefixgen/prefixgen/topologies"
)

// searchSteps is the annealing steps per bit of each search of choose:
// enough for the model's optimum of the widths designs have, few enough
// that a design of dozens of adders is chosen in seconds.
const searchSteps = 60

// buildFamily builds family b at width n; a width the family's parameters
// do not fit falls back to its default ones.
func buildFamily(b Baseline, n int) (*network.Network, error) {
	net, err := topologies.Build(b.Topology, n, b.Params)
	if err != nil && len(b.Params) > 0 {
		net, err = topologies.Build(b.Topology, n, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("designmap: %s at %d bits: %w", b.Name(), n, err)
	}
	return net, nil
}

// slackShare is the share of an adder's slack that choose lets its
// network use: two adders on one path see the same slack, and each may
// take only part of it.
const slackShare = 0.5

// choose gives every adder networks by the delay model, from the timing m
// measured with choice cur, and returns three choices to measure. An adder
// whose outputs lack slack gets the fastest network for its bits'
// arrivals in the first and third, and keeps cur's in the second. An
// adder whose outputs have slack gets, in the first two, the least cells
// whose model delay, scaled as OpenSTA measured cur's, uses no more than
// slackShare of it, and keeps cur's in the third.
func (r *run) choose(ctx context.Context, cur choice, m *measure) ([]choice, error) {
	tries := make([]choice, 3)
	for k := range tries {
		tries[k].nets = make([]*network.Network, len(r.adders))
	}
	set := func(i int, nets ...*network.Network) {
		for k, net := range nets {
			tries[k].nets[i] = net
		}
	}
	for i, a := range r.adders {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n := a.width
		now := cur.network(i)
		if now == nil {
			var err error
			if now, err = topologies.Build("brent-kung", n, nil); err != nil {
				return nil, err
			}
		}
		if n <= 2 {
			set(i, now, now, now)
			continue
		}
		at := m.arrivals[i]
		lo := slices.Min(at)
		rel := make([]float64, n)
		for j, t := range at {
			rel[j] = t - lo
		}
		prof := &delay.Profile{Arrival: rel}
		base := optimize.Options{Width: n, MaxDepth: n - 1, Seed: 1, Steps: searchSteps * n, Model: r.model, Profile: prof}
		slack := m.slack[i]
		if math.IsInf(slack, 1) {
			// No timed path runs through it: the fewest cells.
			small, err := optimize.Minimize(ctx, base)
			if err != nil {
				return nil, fmt.Errorf("designmap: %s: %w", a.cell, err)
			}
			set(i, small.Network, small.Network, now)
			continue
		}
		fastOpt := base
		fastOpt.Objective = optimize.Delay
		fast, err := optimize.Minimize(ctx, fastOpt)
		if err != nil {
			return nil, fmt.Errorf("designmap: %s: %w", a.cell, err)
		}
		if slack <= 0 {
			set(i, fast.Network, now, fast.Network)
			continue
		}
		nowModel := r.model.AnalyzeProfile(now, prof)
		measured := m.cout[i] - lo
		if math.IsNaN(measured) || measured <= 0 {
			measured = nowModel.NS
		}
		// The model's delay this adder may take: its delay now, scaled by
		// how much later its outputs may leave than they do.
		allowed := nowModel.FO4 * (measured + slackShare*slack) / measured
		areaOpt := base
		areaOpt.MaxDelay = allowed
		small, err := optimize.Minimize(ctx, areaOpt)
		_, infeasible := errors.AsType[*optimize.InfeasibleError](err)
		_, notFound := errors.AsType[*optimize.NotFoundError](err)
		switch {
		case infeasible || notFound:
			set(i, now, now, now)
		case err != nil:
			return nil, fmt.Errorf("designmap: %s: %w", a.cell, err)
		default:
			set(i, small.Network, small.Network, now)
		}
	}
	return tries, nil
}

// network is adder i's network in c, nil for Yosys's own.
func (c choice) network(i int) *network.Network {
	if c.yosys {
		return nil
	}
	return c.nets[i]
}
