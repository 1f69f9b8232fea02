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
// cycles: the first takes its high quotient bits (its remainders are narrow, so its steps are
// short), the second two bits, the third the last bit; the third then compares the column with
// bounds of the plus side that depend on the straps alone, so they are ready beside the
// division. The row needs no division: on a grid the straps hold node_id = y * width + x and
// nodes = width * height, so where dest is in this column, (dest - node_id) mod nodes is the
// rows forward times the width, and the shorter way round is found by comparing it with
// nodes / 2 (or (nodes - width) / 2 for an odd height).
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
  // The division's quotient bits by cycle: [NODE_W-1, LO1], [LO1-1, 1], [0].
  localparam int LO1 = NODE_W > 3 ? 3 : NODE_W;

  // One step of the restoring division by `width`: the remainder with the next dividend bit.
  // The remainder is below the width, so it fits NODE_W bits.
  function automatic logic [NODE_W-1:0] reduce(input logic [NODE_W-1:0] rem, input logic bit_i,
                                               input logic [NODE_W-1:0] width);
    logic [W-1:0] r;
    r = {rem, bit_i};
    reduce = NODE_W'(r >= W'(width) ? r - W'(width) : r);
  endfunction

  // The plus side of x along the row (the dimension-order rule above), from the straps alone:
  // the columns after x up to lim, or where arc, the columns after x and those from 0 up to
  // lim. On a ring lim is x + (width - 1) / 2 mod width, the shorter half; on a line it is
  // all ones, every column after x. opp is the column half a ring away, a tie that goes +
  // where tie (an even ring: of 2 nodes always, of more when opp is even).
  logic [NODE_W-1:0] lim, opp;
  logic              arc, tie;

  always_comb begin
    logic [W-1:0] last, across;  // x + (width - 1) / 2 and x + width / 2, not yet mod width
    last = W'(grid_x_i) + (W'(grid_width_i - NODE_W'(1)) >> 1);
    across = W'(grid_x_i) + (W'(grid_width_i) >> 1);
    arc = grid_wraps_i && last >= W'(grid_width_i);
    lim = !grid_wraps_i ? '1 : NODE_W'(arc ? last - W'(grid_width_i) : last);
    opp = NODE_W'(across >= W'(grid_width_i) ? across - W'(grid_width_i) : across);
    tie = grid_wraps_i && !grid_width_i[0] && (grid_width_i == NODE_W'(2) || !opp[0]);
  end

  // What a cycle hands the next: the destination, the remainder of its bits so far, and what
  // the first cycle decided (the neighbour's port, no route, the way along y).
  logic [NODE_W-1:0] dest_q [2];
  logic [NODE_W-1:0] rem1, rem2, rem_q [2];
  logic [PORT_W-1:0] link, link_q [2];  // the neighbour's port, PORT_LOCAL for none
  logic              no_route, y_plus;
  logic [1:0]        no_route_q, y_plus_q;

  // First cycle: the neighbours, the row and the high quotient bits of the division.
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

  // Second cycle: the next two quotient bits.
  always_comb begin
    rem2 = rem_q[0];
    for (int i = LO1 - 1; i >= 1; i--) rem2 = reduce(rem2, dest_q[0][i], grid_width_i);
  end

  always_ff @(posedge clk_i) begin
    {dest_q[0], rem_q[0], link_q[0], no_route_q[0], y_plus_q[0]} <=
        {dest_i, rem1, link, no_route, y_plus};
    {dest_q[1], rem_q[1], link_q[1], no_route_q[1], y_plus_q[1]} <=
        {dest_q[0], rem2, link_q[0], no_route_q[0], y_plus_q[0]};
  end

  // Third cycle: the last quotient bit, then x before y (plus: the column is on x's plus side).
  always_comb begin
    logic [NODE_W-1:0] column;
    logic              after, upto, plus;
    column = reduce(rem_q[1], dest_q[1][0], grid_width_i);
    after = column > grid_x_i;
    upto = column <= lim;
    plus = (arc ? after || upto : after && upto) || (tie && column == opp);
    port_o = link_q[1];
    neighbour_o = link_q[1] != PORT_W'(PORT_LOCAL);
    if (!neighbour_o && grid_width_i != '0) begin
      if (column != grid_x_i) begin
        port_o = plus ? PORT_W'(PORT_X_PLUS) : PORT_W'(PORT_X_MINUS);
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
