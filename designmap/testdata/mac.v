// A small design for designmap's tests: a four-operand sum (a $macc,
// whose final adder's bits arrive late in the middle), an accumulator and
// a comparison, between registers.
module mac (
    input clk,
    input reset_n,
    input [15:0] a, b, c, d,
    output reg [17:0] sum,
    output reg [17:0] acc,
    output reg more
);
    reg [15:0] ra, rb, rc, rd;
    always @(posedge clk or negedge reset_n)
        if (!reset_n) begin
            ra <= 0; rb <= 0; rc <= 0; rd <= 0; sum <= 0; acc <= 0; more <= 0;
        end else begin
            ra <= a; rb <= b; rc <= c; rd <= d;
            sum <= ra + rb + rc + rd;
            acc <= acc + sum;
            more <= sum > acc;
        end
endmodule
