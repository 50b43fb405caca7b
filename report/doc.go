// Package report draws the trade-off space that package explore maps: a plot
// of size against depth (Plot, with gonum.org/v1/plot), one marker shape and
// colour per family, its size by fan-out, the Pareto front ringed and Snir's
// lower bound 2n − 2 − depth drawn as a line, the legend beside the axes; and a single self-contained HTML page
// (HTML) with the table of every network, the plot, every network's diagram
// from emit.SVG and the command that rebuilds each. The page loads nothing
// from outside itself and runs no script. With the adders the physical flow
// measured (Options.Measured; PlotAreaDelay draws them alone) it adds the
// plot of area against delay and, beside each network, a row per adder: its
// area, delay and place on that front, the medians where the flow measured
// several orders of the gates. In both plots no marker hides another: the
// families of one depth, and the adders measured at one point (Yosys's
// included), stand side by side, in a fixed order.
//
// Both are deterministic: the same points give the same bytes.
package report
