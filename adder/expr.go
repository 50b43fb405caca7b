package adder

// Constructors of expressions that fold constants, so that a carry-in of 0
// or 1 leaves no constant gate behind.

// ref is the expression reading r.
func ref(r Ref) Expr { return Expr{Op: OpRef, Ref: r} }

// sig is the expression reading the whole signal name.
func sig(name string) Expr { return ref(Whole(name)) }

// bit is the expression reading bit i of name.
func bit(name string, i int) Expr { return ref(Bit(name, i)) }

// konst is the constant v.
func konst(v bool) Expr { return Expr{Op: OpConst, Value: v} }

// isConst reports whether e is the constant v.
func isConst(e Expr, v bool) bool { return e.Op == OpConst && e.Value == v }

// not is ¬e.
func not(e Expr) Expr {
	switch {
	case e.Op == OpConst:
		return konst(!e.Value)
	case e.Op == OpNot:
		return e.Args[0]
	}
	return Expr{Op: OpNot, Args: []Expr{e}}
}

// and is x ∧ y.
func and(x, y Expr) Expr {
	switch {
	case isConst(x, false) || isConst(y, false):
		return konst(false)
	case isConst(x, true):
		return y
	case isConst(y, true):
		return x
	}
	return Expr{Op: OpAnd, Args: []Expr{x, y}}
}

// or is x ∨ y.
func or(x, y Expr) Expr {
	switch {
	case isConst(x, true) || isConst(y, true):
		return konst(true)
	case isConst(x, false):
		return y
	case isConst(y, false):
		return x
	}
	return Expr{Op: OpOr, Args: []Expr{x, y}}
}

// xor is x ⊕ y.
func xor(x, y Expr) Expr {
	switch {
	case x.Op == OpConst:
		if x.Value {
			return not(y)
		}
		return y
	case y.Op == OpConst:
		return xor(y, x)
	}
	return Expr{Op: OpXor, Args: []Expr{x, y}}
}

// mux is s ? x1 : x0.
func mux(s, x1, x0 Expr) Expr {
	if s.Op == OpConst {
		if s.Value {
			return x1
		}
		return x0
	}
	return Expr{Op: OpMux, Args: []Expr{s, x1, x0}}
}

// reduce is the AND (op OpReduceAnd) or OR of every bit of the bus e.
func reduce(op ExprOp, e Expr) Expr { return Expr{Op: op, Args: []Expr{e}} }

// walk calls fn on every reference in e, in order, and lets fn replace it.
func walk(e *Expr, fn func(*Ref)) {
	if e.Op == OpRef {
		fn(&e.Ref)
		return
	}
	for i := range e.Args {
		walk(&e.Args[i], fn)
	}
}

// andN is the AND of xs, folding constants and flattening nested ANDs; one
// argument is itself.
func andN(xs ...Expr) Expr { return nary(OpAnd, xs) }

// orN is the OR of xs, as andN.
func orN(xs ...Expr) Expr { return nary(OpOr, xs) }

func nary(op ExprOp, xs []Expr) Expr {
	identity := op == OpAnd // 1 for AND, 0 for OR
	var args []Expr
	for _, x := range xs {
		switch {
		case x.Op == OpConst && x.Value == identity:
			continue
		case x.Op == OpConst:
			return x
		case x.Op == op:
			args = append(args, x.Args...)
		default:
			args = append(args, x)
		}
	}
	switch len(args) {
	case 0:
		return konst(identity)
	case 1:
		return args[0]
	}
	return Expr{Op: op, Args: args}
}
