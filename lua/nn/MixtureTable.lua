-- nn.MixtureTable([dim]): input {gater, experts}; the output is sum_i gater[i] * expert_i.
-- gater: [n] or a batch [B, n]. experts: a table of n tensors of one size (each with the
-- batch dimension first when batched), or one tensor holding the experts along dim
-- (default 2 with a batch, 1 without).
local MixtureTable, parent = torch.class('nn.MixtureTable', 'nn.Module')

function MixtureTable:__init(dim)
   parent.__init(self)
   self.dim = dim
   self.gradInput = {}
end

local function fail(msg) error('nn.MixtureTable: ' .. msg, 3) end

-- the gate of expert i (or of every expert, i = nil, for a tensor of experts) viewed with
-- size 1 in every dimension but the batch's, expanded to the size of like
local function gateView(gater, i, like, dim)
   local batched = gater:dim() == 2
   local sizes = {}
   for d = 1, like:dim() do sizes[d] = 1 end
   if batched then sizes[1] = gater:size(1) end
   local g = gater
   if i then
      g = batched and gater:select(2, i) or gater:narrow(1, i, 1)
   else
      sizes[dim] = gater:size(batched and 2 or 1)
   end
   return g:contiguous():view(torch.LongStorage(sizes)):expandAs(like)
end

function MixtureTable:_check(input)
   if type(input) ~= 'table' or #input ~= 2 then fail('a table {gater, experts} expected') end
   local gater, experts = input[1], input[2]
   if not torch.isTensor(gater) or (gater:dim() ~= 1 and gater:dim() ~= 2) then
      fail('the gater must be a vector or a batch of vectors')
   end
   local batched = gater:dim() == 2
   local n = gater:size(batched and 2 or 1)
   if torch.isTensor(experts) then
      local dim = self.dim or (batched and 2 or 1)
      if experts:dim() < dim or experts:size(dim) ~= n or (batched and experts:size(1) ~= gater:size(1)) then
         fail(string.format('experts of size %s do not match the gater\'s %s (experts along dimension %d)',
                            nn.utils.sizeString(experts), nn.utils.sizeString(gater), dim))
      end
      return gater, experts, dim
   end
   if type(experts) ~= 'table' or #experts ~= n then
      fail(string.format('one gater output per expert expected: %d gater outputs, %s experts', n,
                         type(experts) == 'table' and #experts or torch.type(experts)))
   end
   for i = 1, n do
      if not experts[i]:isSameSizeAs(experts[1]) or (batched and experts[i]:size(1) ~= gater:size(1)) then
         fail(string.format('expert %d has size %s (expert 1: %s, gater: %s)', i, nn.utils.sizeString(experts[i]),
                            nn.utils.sizeString(experts[1]), nn.utils.sizeString(gater)))
      end
   end
   return gater, experts
end

function MixtureTable:updateOutput(input)
   local gater, experts, dim = self:_check(input)
   self._expert = self._expert or gater.new()
   if dim then
      self._expert:resizeAs(experts):copy(experts):cmul(gateView(gater, nil, experts, dim))
      self.output:resizeAs(experts:select(dim, 1)):copy(self._expert:sum(dim):select(dim, 1))
   else
      self.output:resizeAs(experts[1]):zero()
      for i, expert in ipairs(experts) do
         self.output:add(self._expert:resizeAs(expert):copy(expert):cmul(gateView(gater, i, expert)))
      end
   end
   return self.output
end

function MixtureTable:updateGradInput(input, gradOutput)
   local gater, experts, dim = self:_check(input)
   local batched = gater:dim() == 2
   local B = batched and gater:size(1) or 1
   self.gradInput[1] = self.gradInput[1] or gater.new()
   local gradGater = self.gradInput[1]:resizeAs(gater)
   local gradGaterRows = gradGater:view(B, gater:nElement() / B)
   if dim then
      -- gradOutput spread along the experts' dimension
      local sizes = experts:size():totable()
      sizes[dim] = 1
      local spread = gradOutput:contiguous():view(torch.LongStorage(sizes)):expandAs(experts)
      self._expert:resizeAs(experts):copy(experts):cmul(spread)
      -- gradGater[b][i]: the sum of expert i's products (dim moved next to the batch's)
      local products = batched and self._expert:transpose(2, dim) or self._expert:transpose(1, dim)
      products = products:contiguous():view(B, gradGaterRows:size(2), -1)
      gradGaterRows:copy(products:sum(3):select(3, 1))
      self.gradInput[2] = torch.isTensor(self.gradInput[2]) and self.gradInput[2] or gater.new()
      self.gradInput[2]:resizeAs(experts):copy(spread):cmul(gateView(gater, nil, experts, dim))
   else
      self.gradInput[2] = type(self.gradInput[2]) == 'table' and self.gradInput[2] or {}
      local gradExperts = self.gradInput[2]
      for i, expert in ipairs(experts) do
         self._expert:resizeAs(expert):copy(expert):cmul(gradOutput)
         gradGaterRows:select(2, i):copy(self._expert:contiguous():view(B, -1):sum(2):select(2, 1))
         gradExperts[i] = gradExperts[i] or gater.new()
         gradExperts[i]:resizeAs(expert):copy(gradOutput):cmul(gateView(gater, i, expert))
      end
      for i = #experts + 1, #gradExperts do gradExperts[i] = nil end
   end
   return self.gradInput
end

function MixtureTable:type(typename, tensorCache)
   self.gradInput = {}
   return parent.type(self, typename, tensorCache)
end

function MixtureTable:clearState()
   nn.utils.clear(self, '_expert')
   return parent.clearState(self)
end
