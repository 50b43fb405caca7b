// Package delay estimates the delay and area of the adder built around a
// prefix network without running any tool: a logical-effort model in the
// manner of Harris and Sutherland's treatment of prefix adders (D. Harris
// and I. Sutherland, Logical Effort of Carry Propagate Adders, 37th Asilomar
// Conference, 2003).
//
// The adder is the one package emit writes: a pre-processing row
// (g_i = a_i ∧ b_i, one gate; p_i = a_i ⊕ b_i, one XOR), one gate per half of
// each prefix cell (G = G_hi ∨ P_hi ∧ G_lo as an AOI21, and, in black cells,
// P = P_hi ∧ P_lo as a NAND2, polarity alternating row by row so that no
// inverters are needed), and the sum row (sum_i = p_i ⊕ carry_i, an XOR).
// The gate that folds the carry-in into bit 0 (g_0 ∨ p_0 ∧ cin) is left
// out: the model times the adder without carry-in, whose bit 0 carry is
// g_0, so a path from bit 0 is one gate shorter than the emitted adder's.
// Every gate is taken at unit drive, as a synthesis flow without gate sizing
// leaves it, so a stage's delay is its parasitic delay plus its drive
// resistance times the capacitance it drives:
//
//	d = p + r · (Σ input capacitance of the readers + wire)
//
// in units of τ, the delay of an ideal unit inverter driving its own input
// capacitance. The readers of a signal are counted one by one (its branching
// effort, from the fan-out), each pin with its own capacitance: a G read as
// G_lo enters the AOI21's series stack, one read as G_hi its single
// transistor; the horizontal wire of a Lo operand loads the driver with
// WireCap per column it spans (P's only as far as a black cell reads it) (the wire tracks a level needs are these
// wires side by side). Arrivals propagate through the network by a dynamic
// program in topological order, G and P separately: a cell's G arrives when
// the latest of G_lo, P_hi and G_hi has arrived plus its AOI21's delay. The
// delay of the adder is the latest arrival at a sum or carry-out, and
// Report.FO4 divides it by the library's FO4 delay (an inverter driving four
// copies of itself), the usual technology-independent unit.
//
// The constants of a Library are measured from a Liberty file, not guessed:
// OSU018 holds those of the OSU 0.18 µm cells Debian's qflow-tech-osu018
// ships. Each gate's parasitic delay and drive resistance are the intercept
// and slope of a straight line fitted to its cell_rise and cell_fall tables
// at the input transition nearest 0.18 ns over loads up to 75 fF, averaged
// over its arcs and both edges, and divided by the unit inverter's (INVX1)
// slope times input capacitance (τ = 18.1 ps); input capacitances are the
// Liberty pin capacitances over INVX1's (9.32 fF). The FO4 delay so measured
// is 117 ps, 6.47 τ. TestOSU018 re-derives every constant from the Liberty
// file when it is installed. The library has no wire-load model, so the
// timing flow sees no wire capacitance and OSU018.WireCap is 0; a user who
// wants the wire tracks weighed sets it (in unit-inverter input
// capacitances per column).
//
// Calibrate measures a Library from any Liberty library in the same way,
// its units read from the file (times in ns or ps, capacitances in pF or
// fF): the smallest usable inverter, NAND2, XOR2 (or XNOR2) and AOI21, the
// loads up to nine unit-inverter input capacitances (75 fF is eight in OSU
// 0.18 µm), and the input transition nearest the inverter's own output
// transition at a fan-out of four, unless CalibrateOptions.SlewNS names one
// (OSU018 is Calibrate at 0.18 ns). A platform's dont-use list
// (CalibrateOptions.DontUse) keeps cells the flow never maps onto out of
// the model too.
//
// The model ranks networks; it does not predict nanoseconds. Its Spearman
// rank correlation with OpenSTA's delay over every named network at 32, 64
// and 128 bits is in docs/, with the command that measures it.
package delay
