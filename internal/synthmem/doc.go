// Package synthmem estimates the memory one synthesis takes: Yosys, ABC
// and OpenSTA on one design, and prefixgen's reading of what they print.
// Package limits refuses a request whose largest synthesis would not fit
// the machine, and package physical runs no more syntheses at once than fit
// it together.
package synthmem
