-- A registered 4-bit adder whose registers are SKY130 flip-flops: two
-- dfxtp_1 and three dfrtp_1 (an asynchronous clear, held off), for
-- check --vhdl --liberty sky130hd --stages 1 (TestCheckVHDLFlipFlopCells).
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity radd is
    port (
        clk : in std_logic;
        rst : in std_logic;
        a : in std_logic_vector(3 downto 0);
        b : in std_logic_vector(3 downto 0);
        cin : in std_logic;
        sum : out std_logic_vector(3 downto 0);
        cout : out std_logic
    );
end entity radd;

architecture netlist of radd is
    component \sky130_fd_sc_hd__dfxtp_1\
        port (CLK : in std_logic; D : in std_logic; Q : out std_logic);
    end component;
    component \sky130_fd_sc_hd__dfrtp_1\
        port (CLK : in std_logic; D : in std_logic; RESET_B : in std_logic; Q : out std_logic);
    end component;
    signal s : unsigned(4 downto 0);
    signal d, q : std_logic_vector(4 downto 0);
    signal one : std_logic;
begin
    one <= '1';
    s <= ('0' & unsigned(a)) + ('0' & unsigned(b)) + ("0000" & cin);
    d <= std_logic_vector(s) when rst = '0' else (others => '0');
    low : for i in 0 to 1 generate
        r : \sky130_fd_sc_hd__dfxtp_1\ port map (CLK => clk, D => d(i), Q => q(i));
    end generate;
    high : for i in 2 to 4 generate
        r : \sky130_fd_sc_hd__dfrtp_1\ port map (CLK => clk, D => d(i), RESET_B => one, Q => q(i));
    end generate;
    sum <= q(3 downto 0);
    cout <= q(4);
end architecture netlist;
