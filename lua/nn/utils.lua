-- Helpers shared by the modules: type conversion that keeps sharing, clearing buffers, and
-- the bookkeeping torch7 wrote out again in each module (parameters and their reset, the
-- convolutions' buffers and summaries, pooling and padding switches), which several
-- modules take as methods (SpatialConvolution.noBias = nn.utils.noBias).
local nn = nn
local utils = {}
nn.utils = utils

local function tensorConstructor(typename)
   local T = typename:match('^torch%.(%a+)Tensor$')
   local ctor = T and torch[T .. 'Tensor']
   if not ctor then error('unknown tensor type ' .. tostring(typename), 3) end
   return ctor, torch[T .. 'Storage']
end
utils.tensorConstructor = tensorConstructor

-- param (a tensor, a module, or a table holding some, at any depth) converted to typename. Tensors
-- on one storage stay on one storage: cache maps old storages and tensors (by pointer) to
-- their converted selves, across every call that passes the same cache. Only floating-point
-- tensors change type (cutorch's among them): index tensors (max-pooling indices, class
-- targets) keep theirs.
local floating = { ['torch.FloatTensor'] = true, ['torch.DoubleTensor'] = true, ['torch.CudaTensor'] = true,
                   ['torch.CudaDoubleTensor'] = true, ['torch.CudaHalfTensor'] = true }
function utils.recursiveType(param, typename, cache)
   cache = cache or {}
   if torch.isTypeOf(param, 'nn.Module') or torch.isTypeOf(param, 'nn.Criterion') then
      param:type(typename, cache)
   elseif type(param) == 'table' then
      for k, v in pairs(param) do param[k] = utils.recursiveType(v, typename, cache) end
   elseif torch.isTensor(param) then
      local from = torch.typename(param)
      if from ~= typename and floating[from] then
         local key = torch.pointer(param)
         local converted = cache[key]
         if not converted then
            local Tensor, Storage = tensorConstructor(typename)
            converted = Tensor()
            if param:nDimension() > 0 then
               local storage = param:storage()
               local skey = 's' .. torch.pointer(storage)
               if not cache[skey] then
                  local OldTensor = tensorConstructor(from)
                  cache[skey] = Storage(#storage)
                  Tensor(cache[skey]):copy(OldTensor(storage))
               end
               converted:set(Tensor(cache[skey], param:storageOffset(), param:size(), param:stride()))
            end
            cache[key] = converted
         end
         param = converted
      end
   end
   return param
end

-- Empties the named fields of self: tensors through emptied(tensor), tables become {},
-- anything else nil.
local function clearFields(self, names, emptied)
   for _, name in ipairs(names) do
      local v = self[name]
      if torch.isTensor(v) then
         self[name] = emptied(v)
      elseif type(v) == 'table' then
         self[name] = {}
      else
         self[name] = nil
      end
   end
   return self
end

-- Empties the named fields of self (tensors keep their type, tables become {}).
function utils.clear(self, ...)
   local names = { ... }
   if type(names[1]) == 'table' then names = names[1] end
   return clearFields(self, names, function(v) return v:set() end)
end

-- Like clear, but gives tensors fresh empty ones instead of emptying them: for modules whose
-- output or gradInput is another module's tensor (containers, Identity, views).
function utils.clearReferences(self, ...)
   return clearFields(self, { ... }, function(v) return v.new() end)
end

-- t1 made like t2 (tensors or nested tables of them; t1's tensors reused where their type
-- is t2's): leaf(t1Tensor, t2Tensor) on each tensor, and keys of t1 not in t2 dropped when
-- prune is set.
local function recursiveLike(t1, t2, leaf, prune)
   if type(t2) == 'table' then
      t1 = type(t1) == 'table' and t1 or {}
      for k, v in pairs(t2) do t1[k] = recursiveLike(t1[k], v, leaf, prune) end
      if prune then
         for k in pairs(t1) do if t2[k] == nil then t1[k] = nil end end
      end
   elseif torch.isTensor(t2) then
      t1 = torch.isTensor(t1) and torch.typename(t1) == torch.typename(t2) and t1 or t2.new()
      leaf(t1, t2)
   else
      error('expecting nested tensors or tables, got ' .. torch.type(t1) .. ' and ' .. torch.type(t2))
   end
   return t1
end

-- t1 resized like t2: tensors or nested tables of them.
function utils.recursiveResizeAs(t1, t2)
   return recursiveLike(t1, t2, function(a, b) a:resizeAs(b) end, true)
end

function utils.recursiveFill(t, value)
   if type(t) == 'table' then
      for _, v in pairs(t) do utils.recursiveFill(v, value) end
   elseif torch.isTensor(t) then
      t:fill(value)
   end
   return t
end

-- t1 = t1 + alpha * t2, for tensors or nested tables of them.
function utils.recursiveAdd(t1, alpha, t2)
   if t2 == nil then alpha, t2 = 1, alpha end
   if type(t2) == 'table' then
      for k, v in pairs(t2) do t1[k] = utils.recursiveAdd(t1[k], alpha, v) end
   else
      t1:add(alpha, t2)
   end
   return t1
end

function utils.recursiveCopy(t1, t2)
   return recursiveLike(t1, t2, function(a, b) a:resizeAs(b):copy(b) end, false)
end

-- self.dimension as a dimension of an input of nDim dimensions: negative counts from the
-- last, and where self.nInputDims is set, an input of one more dimension is a batch
function utils.positiveDimension(self, nDim)
   local dimension = self.dimension
   if dimension < 0 then
      dimension = nDim + dimension + 1
   elseif self.nInputDims and nDim == self.nInputDims + 1 then
      dimension = dimension + 1
   end
   return dimension
end

-- "3x4" for error messages
function utils.sizeString(t)
   if not torch.isTensor(t) then return torch.type(t) end
   if t:nDimension() == 0 then return 'empty' end
   return table.concat(t:size():totable(), 'x')
end

-- Parameter bookkeeping that torch7 wrote out in each module ------------------------------

-- a size given as numbers or as one LongStorage, as a LongStorage
function utils.sizeArguments(...)
   local first = ...
   if select('#', ...) == 1 and torch.typename(first) == 'torch.LongStorage' then return first end
   return torch.LongStorage({ ... })
end

local function sized(size)
   return torch.Tensor(type(size) == 'table' and torch.LongStorage(size) or size)
end

-- weight and gradWeight of the size weightSize, bias and gradBias of biasSize (a table of
-- numbers or a LongStorage; none where nil): torch7's fields, left uninitialised for reset
function utils.allocateParameters(self, weightSize, biasSize)
   if weightSize then
      self.weight = sized(weightSize)
      self.gradWeight = sized(weightSize)
   end
   if biasSize then
      self.bias = sized(biasSize)
      self.gradBias = sized(biasSize)
   end
   return self
end

-- input as [B, n] (B = 1 for a vector): for modules taking a vector or a batch of rows
function utils.batchOfRows(self, input, n)
   if (input:dim() ~= 1 and input:dim() ~= 2) or input:size(input:dim()) ~= n then
      error(string.format('%s: a vector of %d elements or a batch of them expected, got %s', torch.type(self), n,
                          utils.sizeString(input)), 3)
   end
   return input:dim() == 1 and input:view(1, n) or input
end

-- torch7's default initialisation draws uniformly from [-a, a]: a = 1 / sqrt(fanIn), or
-- stdv sqrt(3) when a standard deviation stdv is given (the uniform law's is a / sqrt(3))
function utils.uniformBound(stdv, fanIn)
   return stdv and stdv * math.sqrt(3) or 1 / math.sqrt(fanIn)
end

-- module:reset(stdv): weight, then bias, each where the module has one
function utils.resetUniform(self, stdv, fanIn)
   local a = utils.uniformBound(stdv, fanIn)
   if self.weight then self.weight:uniform(-a, a) end
   if self.bias then self.bias:uniform(-a, a) end
   return self
end

-- module:noBias(): drops bias and gradBias
function utils.noBias(self)
   self.bias = nil
   self.gradBias = nil
   return self
end

-- The convolutions over THNN's unfold (im2col / vol2col) + GEMM kernels ---------------------

-- finput and fgradInput: the kernels' column buffers, made on first use in the weight's type
function utils.convolutionBuffers(self)
   self.finput = self.finput or self.weight.new()
   self.fgradInput = self.fgradInput or self.weight.new()
end

-- module:type(): the buffers are remade in the new type rather than converted
function utils.convolutionType(self, typename, tensorCache)
   if typename then
      self.finput = self.finput and torch.Tensor()
      self.fgradInput = self.fgradInput and torch.Tensor()
   end
   return nn.Module.type(self, typename, tensorCache)
end

function utils.convolutionClearState(self)
   utils.clear(self, 'finput', 'fgradInput', '_input', '_gradOutput')
   return nn.Module.clearState(self)
end

local function joinInts(values, sep)
   local parts = {}
   for i, v in ipairs(values) do parts[i] = string.format('%d', v) end
   return table.concat(parts, sep)
end

-- torch7's summary 'nn.X(nIn -> nOut, sizes[, strides[, pads]][, extras])' where each of
-- sizes and extras is a list of lists of numbers ({ { kW, kH } } prints 3x2, each extra
-- prints 1,1); the strides also show when only the padding differs from its default
function utils.convolutionString(self, sizes, strides, pads, extras)
   local shapes = {}
   for i, size in ipairs(sizes) do shapes[i] = joinInts(size, 'x') end
   local s = string.format('%s(%d -> %d, %s', torch.type(self), self.nInputPlane, self.nOutputPlane,
                           table.concat(shapes, ', '))
   local padded, strided = false, false
   for i = 1, #pads do
      padded = padded or pads[i] ~= 0
      strided = strided or strides[i] ~= 1
   end
   if strided or padded then s = s .. ', ' .. joinInts(strides, ',') end
   if padded then s = s .. ', ' .. joinInts(pads, ',') end
   for _, extra in ipairs(extras or {}) do s = s .. ', ' .. joinInts(extra, ',') end
   return s .. (self.bias and ')' or ') without bias')
end

-- The transposed convolutions take { input, target } (the output takes target's sizes):
-- their gradInput is then { gradient, zeros like target }, the zeros one element expanded
-- to target's sizes as in torch7. Returns the tensor that the gradient with respect to
-- the input goes to.
function utils.fullConvolutionGradInput(self, input, x)
   local gradInput = self.gradInput
   if type(input) == 'table' then
      self.gradInput = torch.isTensor(gradInput) and { gradInput } or gradInput
      gradInput = self.gradInput[1]
      local ones = {}
      for i = 1, input[2]:dim() do ones[i] = 1 end
      local zero = x.new(1):zero()
      self.gradInput[2] = zero:view(torch.LongStorage(ones)):expandAs(input[2])
   elseif type(gradInput) == 'table' then
      gradInput = gradInput[1]
      self.gradInput = gradInput
   end
   return gradInput
end

-- Pooling -------------------------------------------------------------------------------

-- module:ceil() and module:floor(): how the output size is rounded
function utils.setCeilMode(self)
   self.ceil_mode = true
   return self
end

function utils.setFloorMode(self)
   self.ceil_mode = false
   return self
end

-- average pooling: whether the padding counts in the divisor
function utils.setCountIncludePad(self)
   self.count_include_pad = true
   return self
end

function utils.setCountExcludePad(self)
   self.count_include_pad = false
   return self
end

-- max pooling's indices, as the kernels want them: type() converts every tensor, so they
-- are turned back into longs
function utils.poolingIndices(self)
   self.indices = self.indices and self.indices:long() or torch.LongTensor()
   return self.indices
end

function utils.maxPoolingClearState(self)
   utils.clear(self, 'indices')
   return nn.Module.clearState(self)
end

-- torch7's summary 'nn.X(kWxkH, dW,dH[, padW,padH])' (likewise with T in front)
function utils.poolingString(self, sizes, strides, pads)
   local s = string.format('%s(%s, %s', torch.type(self), joinInts(sizes, 'x'), joinInts(strides, ','))
   for _, pad in ipairs(pads) do
      if pad ~= 0 then return s .. ', ' .. joinInts(pads, ',') .. ')' end
   end
   return s .. ')'
end

-- Spatial paddings -----------------------------------------------------------------------

-- pad_l columns on the left, pad_r on the right, pad_t rows on top, pad_b below; each
-- defaults to pad_l
function utils.setPads(self, pad_l, pad_r, pad_t, pad_b)
   self.pad_l = pad_l
   self.pad_r = pad_r or self.pad_l
   self.pad_t = pad_t or self.pad_l
   self.pad_b = pad_b or self.pad_l
   return self
end

function utils.paddingString(self)
   return torch.type(self) .. string.format('(l=%d, r=%d, t=%d, b=%d)', self.pad_l, self.pad_r, self.pad_t, self.pad_b)
end

-- The methods of nn.<kernel>, a padding module over THNN's <kernel>_ functions (the
-- reflection and replication paddings).
local function checkPaddingInput(input, kernel)
   if input:dim() ~= 3 and input:dim() ~= 4 then
      error('nn.' .. kernel .. ': 3D or 4D (batch mode) tensor expected, got ' .. utils.sizeString(input), 3)
   end
end

function utils.thnnPadding(class, kernel)
   function class:__init(pad_l, pad_r, pad_t, pad_b)
      nn.Module.__init(self)
      utils.setPads(self, pad_l, pad_r, pad_t, pad_b)
   end

   function class:updateOutput(input)
      checkPaddingInput(input, kernel)
      input.THNN[kernel .. '_updateOutput'](input, self.output, self.pad_l, self.pad_r, self.pad_t, self.pad_b)
      return self.output
   end

   function class:updateGradInput(input, gradOutput)
      checkPaddingInput(input, kernel)
      input.THNN[kernel .. '_updateGradInput'](input, gradOutput, self.gradInput, self.pad_l, self.pad_r, self.pad_t,
                                               self.pad_b)
      return self.gradInput
   end

   class.__tostring__ = utils.paddingString
end


-- addSingletonDimension([result,] t[, dim = 1]): a view of t with a dimension of size 1
-- inserted at dim (1 .. t:dim() + 1); result, when given, is set to it and returned.
function utils.addSingletonDimension(...)
   local result, t, dim
   if torch.isTensor(select(2, ...)) then
      result, t, dim = ...
   else
      t, dim = ...
      result = t.new()
   end
   dim = dim or 1
   local n = t:dim()
   if type(dim) ~= 'number' or dim < 1 or dim > n + 1 then
      error(string.format('nn.utils.addSingletonDimension: dimension %s out of range 1..%d', tostring(dim), n + 1), 2)
   end
   local sizes, strides = {}, {}
   for i = 1, n do sizes[i], strides[i] = t:size(i), t:stride(i) end
   table.insert(sizes, dim, 1)
   table.insert(strides, dim, dim <= n and t:stride(dim) * t:size(dim) or 1)
   return result:set(t:storage(), t:storageOffset(), torch.LongStorage(sizes), torch.LongStorage(strides))
end

return utils
