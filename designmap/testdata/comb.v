// A design for designmap's tests without a clock or registers: a sum of
// three operands and a comparison, timed from its inputs to its outputs.
module comb (
    input [15:0] a, b, c,
    output [15:0] s,
    output lt
);
    assign s = a + b + c;
    assign lt = a < b;
endmodule
