// A design without adders.
module noadder (input clk, input [7:0] a, output reg [7:0] y);
    always @(posedge clk) y <= a ^ {a[6:0], a[7]};
endmodule
