// The first hop of a send from this node (systemc/ni/first_hop.hpp, its SystemC twin): the
// router port its flits leave by. A neighbour's node leaves by the port of its link (the
// highest such port, where two links reach it); on a grid any other node leaves by the port of
// its first dimension-order hop (x first, then y; on a torus the shorter way round, a tie
// broken towards the plus side for an even destination coordinate, as
// systemc/router/dor_route.cpp). PORT_LOCAL: no route (this node, a node past the network, or
// no link and no grid).
//
// Timing: dest_i in cycle t gives port_o and neighbour_o in cycle t + 2; a new destination may
// come every cycle. The column dest mod width is a restoring division spread over the three
// cycles, a third of its quotient bits in each. The row needs no division: on a grid the
// straps hold node_id = y * width + x and nodes = width * height, so where dest is in this
// column, (dest - node_id) mod nodes is the rows forward times the width, and the shorter way
// round is found by comparing it with nodes / 2 (or (nodes - width) / 2 for an odd height).
module first_hop #(
  // Width of a node id; nil is all ones.
  parameter int unsigned NODE_W = 8,
  localparam int unsigned PORT_W = ni_formats_pkg::FLIT_PORT_BITS
) (
  input  logic                clk_i,
  // Straps (registered by the NI, still through a run): this node, the node count, the node
  // across each router port 1..4 (y-, y+, x-, x+; nil for none) and the grid (width 0: not a
  // grid).
  input  logic [NODE_W-1:0]   node_id_i,
  input  logic [NODE_W-1:0]   nodes_i,
  input  logic [4*NODE_W-1:0] neighbour_i,
  input  logic [NODE_W-1:0]   grid_x_i,
  /* verilator lint_off UNUSEDSIGNAL */  // only its parity: y itself is node_id's row
  input  logic [NODE_W-1:0]   grid_y_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [NODE_W-1:0]   grid_width_i,
  input  logic [NODE_W-1:0]   grid_height_i,
  input  logic                grid_wraps_i,
  input  logic [NODE_W-1:0]   dest_i,
  // The port code (format/ni_formats.json `ports`) and whether the node is a neighbour.
  output logic [PORT_W-1:0]   port_o,
  output logic                neighbour_o
);

  `include "ni_formats.svh"

  localparam int unsigned W = NODE_W + 1;  // a remainder shifted, sums of two ids
  // The division's quotient bits by cycle: [NODE_W-1, LO1], [LO1-1, LO2], [LO2-1, 0].
  localparam int PER = (NODE_W + 2) / 3;
  localparam int LO1 = NODE_W - PER;
  localparam int LO2 = NODE_W - 2 * PER > 0 ? NODE_W - 2 * PER : 0;

  // One step of the restoring division by `width`: the remainder with the next dividend bit.
  // The remainder is below the width, so it fits NODE_W bits.
  function automatic logic [NODE_W-1:0] reduce(input logic [NODE_W-1:0] rem, input logic bit_i,
                                               input logic [NODE_W-1:0] width);
    logic [W-1:0] r;
    r = {rem, bit_i};
    reduce = NODE_W'(r >= W'(width) ? r - W'(width) : r);
  endfunction

  // Whether the plus side is the way from `from` to `to` along a ring of `size` (wraps) or a
  // line: the dimension-order rule above.
  function automatic logic step_plus(input logic wraps, input logic [NODE_W-1:0] from,
                                     input logic [NODE_W-1:0] to, input logic [NODE_W-1:0] size);
    logic [W-1:0] fwd;
    fwd = to >= from ? W'(to - from) : W'(to) + W'(size) - W'(from);
    if (!wraps) step_plus = to > from;
    else if ((fwd << 1) == W'(size) && size > NODE_W'(2)) step_plus = !to[0];
    else step_plus = fwd <= W'(size) - fwd;
  endfunction

  // What a cycle hands the next: the destination, the remainder of its bits so far, and what
  // the first cycle decided (the neighbour's port, no route, the way along y).
  logic [NODE_W-1:0] dest_q [2];
  logic [NODE_W-1:0] rem1, rem2, rem_q [2];
  logic [PORT_W-1:0] link, link_q [2];  // the neighbour's port, PORT_LOCAL for none
  logic              no_route, y_plus;
  logic [1:0]        no_route_q, y_plus_q;

  // First cycle: the neighbours, the row and the first third of the division.
  always_comb begin
    logic [W-1:0] rows;  // (dest - node_id) mod nodes: rows forward times the width
    logic [W-1:0] half;
    link = PORT_W'(PORT_LOCAL);
    for (int d = 1; d <= 4; d++) begin
      if (neighbour_i[NODE_W*(d-1) +: NODE_W] == dest_i) link = PORT_W'(d);
    end
    no_route = dest_i == node_id_i || dest_i >= nodes_i;
    rows = dest_i >= node_id_i ? W'(dest_i - node_id_i)
                               : W'(dest_i) + W'(nodes_i) - W'(node_id_i);
    half = W'(nodes_i) >> 1;
    if (!grid_wraps_i) begin
      y_plus = dest_i > node_id_i;
    end else if (!grid_height_i[0]) begin
      // Even height: half a ring is nodes / 2; the opposite row y + height / 2 is a tie,
      // broken by its parity (a ring of 2 keeps going +).
      y_plus = rows < half ||
               (rows == half && (grid_height_i == NODE_W'(2) || !(grid_y_i[0] ^ grid_height_i[1])));
    end else begin
      y_plus = rows <= (W'(nodes_i) - W'(grid_width_i)) >> 1;
    end
    rem1 = '0;
    for (int i = NODE_W - 1; i >= LO1; i--) rem1 = reduce(rem1, dest_i[i], grid_width_i);
  end

  // Second cycle: the second third.
  always_comb begin
    rem2 = rem_q[0];
    for (int i = LO1 - 1; i >= LO2; i--) rem2 = reduce(rem2, dest_q[0][i], grid_width_i);
  end

  always_ff @(posedge clk_i) begin
    {dest_q[0], rem_q[0], link_q[0], no_route_q[0], y_plus_q[0]} <=
        {dest_i, rem1, link, no_route, y_plus};
    {dest_q[1], rem_q[1], link_q[1], no_route_q[1], y_plus_q[1]} <=
        {dest_q[0], rem2, link_q[0], no_route_q[0], y_plus_q[0]};
  end

  // Third cycle: the last third of the division, then x before y.
  always_comb begin
    logic [NODE_W-1:0] column;
    column = rem_q[1];
    for (int i = LO2 - 1; i >= 0; i--) column = reduce(column, dest_q[1][i], grid_width_i);
    port_o = link_q[1];
    neighbour_o = link_q[1] != PORT_W'(PORT_LOCAL);
    if (!neighbour_o && grid_width_i != '0) begin
      if (column != grid_x_i) begin
        port_o = step_plus(grid_wraps_i, grid_x_i, column, grid_width_i) ? PORT_W'(PORT_X_PLUS)
                                                                          : PORT_W'(PORT_X_MINUS);
      end else begin
        port_o = y_plus_q[1] ? PORT_W'(PORT_Y_PLUS) : PORT_W'(PORT_Y_MINUS);
      end
    end
    if (no_route_q[1]) begin
      port_o = PORT_W'(PORT_LOCAL);
      neighbour_o = 1'b0;
    end
  end

endmodule
