-- nn.Convert([inputShape, outputShape]): converts the input to the module's tensor type
-- and, given shapes (one letter per dimension, e.g. 'bchw'), reorders its dimensions to
-- outputShape: a letter of outputShape names an input dimension; 'f' (when the input has
-- no 'f') stands for the input dimensions outputShape leaves out, flattened in order.
-- Convert('bchw', 'bf') flattens each sample; Convert('bchw', 'bhwc') moves the channels.
local Convert, parent = torch.class('nn.Convert', 'nn.Module')

function Convert:__init(inputShape, outputShape)
   parent.__init(self)
   if (inputShape == nil) ~= (outputShape == nil) then
      error('nn.Convert([inputShape, outputShape]): give both shapes or neither', 2)
   end
   self.inputShape, self.outputShape = inputShape, outputShape
   if inputShape then self:_plan() end
end

-- self.perm: input dimensions in output order; self.nFlat: how many trailing ones 'f' merges
function Convert:_plan()
   local inS, outS = self.inputShape, self.outputShape
   local position = {}
   for i = 1, #inS do
      local c = inS:sub(i, i)
      if position[c] then error('nn.Convert: letter ' .. c .. ' repeated in ' .. inS, 3) end
      position[c] = i
   end
   local perm, used, flatAt = {}, {}, nil
   for i = 1, #outS do
      local c = outS:sub(i, i)
      if position[c] then
         perm[#perm + 1] = position[c]
         used[position[c]] = true
      elseif c == 'f' and not flatAt then
         flatAt = #perm + 1
      else
         error(string.format('nn.Convert: output dimension %s is not in the input shape %s', c, inS), 3)
      end
   end
   local rest = {}
   for i = 1, #inS do if not used[i] then rest[#rest + 1] = i end end
   if #rest > 0 and not flatAt then
      error(string.format('nn.Convert: output shape %s drops input dimensions of %s (use f to flatten them)', outS, inS), 3)
   end
   if flatAt then
      for k = #rest, 1, -1 do table.insert(perm, flatAt, rest[k]) end
   end
   self.perm, self.flatAt, self.nFlat = perm, flatAt, #rest
end

-- a view of t with dimension perm[i] of t as dimension i
local function permuted(t, perm)
   local order = {}
   for i = 1, #perm do order[i] = i end
   for i = 1, #order do
      -- bring the wanted dimension to place i, following it through the swaps
      local j = i
      while order[j] ~= perm[i] do j = j + 1 end
      if j ~= i then
         t = t:transpose(i, j)
         order[i], order[j] = order[j], order[i]
      end
   end
   return t
end

function Convert:_outputSize(p)
   local size = {}
   for i = 1, p:dim() do
      if self.flatAt and i >= self.flatAt and i < self.flatAt + self.nFlat then
         if i == self.flatAt then size[#size + 1] = 1 end
         size[#size] = size[#size] * p:size(i)
      else
         size[#size + 1] = p:size(i)
      end
   end
   if self.flatAt and self.nFlat == 0 then table.insert(size, self.flatAt, 1) end
   return torch.LongStorage(size)
end

function Convert:updateOutput(input)
   local typed = input:type() == self.output:type() and input or input:type(self.output:type())
   if not self.perm then
      self.output = typed
      return self.output
   end
   if input:dim() ~= #self.inputShape then
      error(string.format('nn.Convert: a %d-D input (%s) expected, got %s', #self.inputShape, self.inputShape,
                          nn.utils.sizeString(input)), 2)
   end
   local p = permuted(typed, self.perm)
   self.output = p:contiguous():view(self:_outputSize(p))
   return self.output
end

function Convert:updateGradInput(input, gradOutput)
   self.gradInput = input.new():resize(input:size())
   if not self.perm then
      self.gradInput:copy(gradOutput)
   else
      local p = permuted(self.gradInput, self.perm)
      p:copy(gradOutput:contiguous():view(p:size()))
   end
   return self.gradInput
end

function Convert:__tostring__()
   if self.inputShape then
      return string.format('%s(%s -> %s)', torch.type(self), self.inputShape, self.outputShape)
   end
   return torch.type(self)
end
