-- nngraph in Lua (require 'nngraph'): graphs built with module(node), split and
-- annotations, an LSTM cell (char-rnn's) against the same formulas written out, gradients
-- against finite differences, save and load, graph.dot's text; and torch.load requiring the
-- package of a class not loaded yet (th subprocesses, nothing required before the load).
require 'nngraph'
local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local maxDiff = gradcheck.maxDiff
local tests = {}

local th = arg and arg[-1] or 'th'
if th:find('/') and not th:find('^/') then th = os.getenv('PWD') .. '/' .. th end
local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
local function shell(command)
   local p = io.popen(command .. ' 2>&1; echo "rc=$?"')
   local out = p:read('*a')
   p:close()
   local text, rc = out:match('^(.*)rc=(%d+)\n$')
   return text, tonumber(rc)
end

-- char-rnn's LSTM cell: {x, prev_c, prev_h} -> {next_c, next_h}
local function lstm(inputSize, rnnSize)
   local x, prevC, prevH = nn.Identity()(), nn.Identity()(), nn.Identity()()
   local i2h = nn.Linear(inputSize, 4 * rnnSize)(x)
   local h2h = nn.Linear(rnnSize, 4 * rnnSize)(prevH)
   local gates = nn.Reshape(4, rnnSize)(nn.CAddTable()({ i2h, h2h }))
   local n1, n2, n3, n4 = nn.SplitTable(2)(gates):split(4)
   local inGate, forgetGate, outGate = nn.Sigmoid()(n1), nn.Sigmoid()(n2), nn.Sigmoid()(n3)
   local transform = nn.Tanh()(n4)
   local nextC = nn.CAddTable()({ nn.CMulTable()({ forgetGate, prevC }), nn.CMulTable()({ inGate, transform }) })
   local nextH = nn.CMulTable()({ outGate, nn.Tanh()(nextC) })
   return nn.gModule({ x, prevC, prevH }, { nextC, nextH })
end

local function sigmoid(t) return torch.cdiv(torch.ones(t:size()), torch.exp(-t) + 1) end

function tests.lstm_against_its_formulas()
   torch.manualSeed(3)
   local m = lstm(3, 4)
   local x, c, h = torch.randn(2, 3), torch.randn(2, 4), torch.randn(2, 4)
   local out = m:forward({ x, c, h })
   -- the two Linear layers, in the order the graph holds them
   local linears = m:findModules('nn.Linear')
   check.eq(#linears, 2)
   local i2h = linears[1].weight:size(2) == 3 and linears[1] or linears[2]
   local h2h = i2h == linears[1] and linears[2] or linears[1]
   local all = torch.mm(x, i2h.weight:t()) + torch.mm(h, h2h.weight:t())
   all:add(i2h.bias:view(1, 16):expand(2, 16)):add(h2h.bias:view(1, 16):expand(2, 16))
   local gate = function(k) return all:narrow(2, (k - 1) * 4 + 1, 4) end
   local nextC = torch.cmul(sigmoid(gate(2)), c) + torch.cmul(sigmoid(gate(1)), torch.tanh(gate(4)))
   local nextH = torch.cmul(sigmoid(gate(3)), torch.tanh(nextC))
   check.ok(maxDiff(out[1], nextC) < 1e-12, 'next_c')
   check.ok(maxDiff(out[2], nextH) < 1e-12, 'next_h')
   -- every parameter through the flat views getParameters makes
   m.flat, m.gradFlat = m:getParameters()
   gradcheck.directional(m, { x, c, h }, 'LSTM gModule', { 'flat' })
end

function tests.save_and_load_runs_the_same()
   local m = lstm(3, 5)
   local input = { torch.randn(4, 3), torch.randn(4, 5), torch.randn(4, 5) }
   local out = m:forward(input)
   local copy = torch.deserialize(torch.serialize(m))
   local out2 = copy:forward(input)
   check.ok(maxDiff(out[1], out2[1]) == 0 and maxDiff(out[2], out2[2]) == 0, 'same outputs')
   local g = { torch.randn(4, 5), torch.randn(4, 5) }
   check.ok(maxDiff(m:backward(input, g)[3], copy:backward(input, g)[3]) == 0, 'same gradients')
end

-- what torch7's nngraph writes has no field of this project's own (the graphs' nodeIndex)
-- and, from older versions, no annotations or reverseMap: such a model loads, runs and
-- draws
function tests.model_without_our_fields()
   local m = lstm(2, 3)
   local input = { torch.randn(1, 2), torch.randn(1, 3), torch.randn(1, 3) }
   local out = m:forward(input)
   for _, g in ipairs({ m.fg, m.bg }) do
      g.nodeIndex = nil
      for _, node in ipairs(g.nodes) do
         node.data.annotations, node.data.reverseMap = nil, nil
      end
   end
   local copy = torch.deserialize(torch.serialize(m))
   local out2 = copy:forward(input)
   check.ok(maxDiff(out[2], out2[2]) == 0, 'same output')
   check.ok(graph.todot(copy.fg):find('digraph', 1, true), 'dot text')
   local g = copy.fg
   g:add(graph.Edge(g.nodes[1], nngraph.Node({})))
   check.eq(#g.nodes, #m.fg.nodes + 1, 'nodes can be added to a read graph')
end

function tests.graph_structure_and_errors()
   local x = nn.Identity()()
   local a, b = nn.SplitTable(1)(x):split(2)
   local net = nn.gModule({ x }, { nn.CAddTable()({ a, b }), a })
   local input = torch.randn(2, 3)
   local out = net:forward(input)
   check.ok(maxDiff(out[1], input[1] + input[2]) == 0 and maxDiff(out[2], input[1]) == 0, 'split and sum')
   local gi = net:backward(input, { torch.ones(3), torch.ones(3) })
   check.tensor(gi, { { 2, 2, 2 }, { 1, 1, 1 } }, 0, 'gradients of a fork add up')
   check.eq(net.forwardnodes[1].data, net.innode.data, 'the input node starts the forward order')
   check.eq(#net.modules, 3, 'Identity, SplitTable, CAddTable; the split is no module')

   check.raises(function() nn.Sigmoid()(nil) end, 'nil')
   check.raises(function() nn.CMulTable()({ nn.Identity()(), nn.Identity() }) end,
                'inputs[2] is an nn.Module, specifically a nn.Identity')
   local y = nn.Identity()()
   local unused = nn.Tanh()(y)
   check.raises(function() nn.gModule({ y }, { nn.Sigmoid()(y) }) end, 'does not connect to gmodule output')
   local z = nn.Identity()()
   local first = z:split(2)
   check.raises(function() nn.gModule({ z }, { first }) end, '1 of split(2) outputs')
   check.ok(unused ~= nil)
end

function tests.annotations_and_dot_text()
   local x = nn.Identity()():annotate({ name = 'Input', graphAttributes = { color = 'red' } })
   local h = nn.Linear(3, 2)(x):annotate({ name = 'Hidden', description = 'the layer',
                                            graphAttributes = { tooltip = 'a tip' } })
   local net = nn.gModule({ x }, { h })
   check.ok(h:label():find('desc = the layer', 1, true), 'label shows the description')
   local text = graph.todot(net.fg, 'net')
   check.ok(text:find('digraph G {', 1, true) and text:find('label="net";', 1, true), text)
   check.ok(text:match('%[color=red label="Input %(%d+%)'), 'attributes before the label')
   check.ok(text:match('label="Hidden %(%d+%)\\ndesc = the layer.-" tooltip="a tip"%]'), text)
   local edges = 0
   for _ in text:gmatch('n%d+ %-> n%d+;') do edges = edges + 1 end
   check.eq(edges, #net.fg.edges, 'one line per edge')
   local file = os.tmpname()
   graph.dot(net.fg, 'net', file)
   local f = io.open(file .. '.dot')
   check.eq(f:read('*a'), text, 'graph.dot writes the text')
   f:close()
   os.remove(file .. '.dot'); os.remove(file .. '.svg'); os.remove(file)
end

function tests.load_requires_our_packages()
   local file = os.tmpname()
   torch.save(file, lstm(2, 3))
   local out, rc = shell(quote(th) .. ' -e ' .. quote(
      "local m = torch.load('" .. file .. "'); print(torch.type(m), nngraph ~= nil, #m:forward({torch.randn(1, 2), torch.randn(1, 3), torch.randn(1, 3)}))"))
   check.eq(rc, 0, out)
   check.eq(out, 'nn.gModule\ttrue\t2\n', 'the nngraph model loads and runs without require')
   -- a class of no package of ours: torch7's error
   local box = torch.getmetatable('nngraphtest.Box') or torch.class('nngraphtest.Box')
   torch.save(file, setmetatable({ x = 1 }, box))
   out, rc = shell(quote(th) .. ' -e ' .. quote("torch.load('" .. file .. "')"))
   check.ok(rc ~= 0, 'an unknown class fails the load')
   check.ok(out:find('unknown Torch class <nngraphtest.Box>', 1, true), out)
   os.remove(file)
end

return tests
