// A small design for designmap's tests: a counter, whose register is an
// adder's operand with nothing between them (cnt + 1), so that the
// register's net is also the adder's input.
module counter (
    input clk,
    input [15:0] a, b,
    output reg [15:0] cnt,
    output reg [15:0] sum
);
    always @(posedge clk) begin
        cnt <= cnt + 1;
        sum <= a + b + cnt;
    end
endmodule
