// A small design for designmap's tests: a sum t of three registers that
// two other sums read, as SHA-256's t1 is read by a_new and e_new, so that
// map merges each chain into one sum.
module chain (
    input clk,
    input [15:0] a, b, c, d, e,
    output reg [15:0] x, y
);
    reg [15:0] ra, rb, rc, rd, re;
    wire [15:0] t = ra + rb + rc;
    always @(posedge clk) begin
        ra <= a; rb <= b; rc <= c; rd <= d; re <= e;
        x <= t + rd;
        y <= re - t;
    end
endmodule
