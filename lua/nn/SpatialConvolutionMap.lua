-- nn.SpatialConvolutionMap(connTable, kW, kH[, dW = 1[, dH = 1]]): a 2-D convolution in
-- which output plane o sees input plane i only through a kernel of its own, one per row
-- {i, o} of the connection table (K x 2, planes counting from 1): weight is K x kH x kW,
-- bias one per output plane. nn.tables builds the usual connection tables.
local SpatialConvolutionMap, parent = torch.class('nn.SpatialConvolutionMap', 'nn.Module')

nn.tables = nn.tables or {}

-- every input plane to every output plane
function nn.tables.full(nin, nout)
   local t = torch.Tensor(nin * nout, 2)
   local k = 1
   for o = 1, nout do
      for i = 1, nin do
         t[k][1], t[k][2] = i, o
         k = k + 1
      end
   end
   return t
end

-- plane i to plane i
function nn.tables.oneToOne(nfeat)
   local t = torch.Tensor(nfeat, 2)
   for i = 1, nfeat do t[i][1], t[i][2] = i, i end
   return t
end

-- each output plane from nto distinct input planes, the input planes used about equally often
function nn.tables.random(nin, nout, nto)
   assert(nto <= nin, 'nn.tables.random: nto must not exceed nin')
   local t = torch.Tensor(nout * nto, 2)
   local pool, used = torch.randperm(nin), 0
   local k = 1
   for o = 1, nout do
      local chosen = {}
      local n = 0
      while n < nto do
         if used == nin then pool, used = torch.randperm(nin), 0 end
         used = used + 1
         local i = pool[used]
         if not chosen[i] then
            chosen[i] = true
            n = n + 1
            t[k][1], t[k][2] = i, o
            k = k + 1
         end
      end
   end
   return t
end

-- The convolution is done by a dense module (class-level denseClass) whose weight is rebuilt
-- from the connections' kernels before each pass; inDim/outDim say where the input and output
-- planes sit in the dense weight. nn.SpatialFullConvolutionMap reuses these methods.
SpatialConvolutionMap.denseClass, SpatialConvolutionMap.inDim, SpatialConvolutionMap.outDim =
   'SpatialConvolution', 2, 1

local function connection(self, dense, k)
   local i, o = self.connTable[k][1], self.connTable[k][2]
   return dense:select(self.outDim, o):select(self.inDim - (self.inDim > self.outDim and 1 or 0), i)
end

-- torch7's kernels read the input planes the table names, so an input may have more planes
-- than the largest the table names (nn.tables.random can leave the last ones out): the dense
-- module is sized by the input's planes, the weights of planes the table leaves out zero.
local function fitInput(self, input)
   local planes = input:size(input:dim() - 2)
   assert(planes >= self.nInputPlane, string.format('%s: input has %d planes but its table reads plane %d',
                                                    torch.type(self), planes, self.nInputPlane))
   if self.dense.weight:size(self.inDim) ~= planes then
      self.dense = nn[self.denseClass](planes, self.nOutputPlane, self.kW, self.kH, self.dW, self.dH)
         :type(self.weight:type())
   end
end

local function densify(self, input)
   fitInput(self, input)
   self.dense.weight:zero()
   for k = 1, self.connTable:size(1) do
      connection(self, self.dense.weight, k):copy(self.weight[k])
   end
   self.dense.bias = self.bias
end

local function sparsify(self)
   for k = 1, self.connTable:size(1) do
      self.gradWeight[k]:add(connection(self, self.dense.gradWeight, k))
   end
end

function SpatialConvolutionMap:__init(conMatrix, kW, kH, dW, dH)
   parent.__init(self)
   assert(torch.isTensor(conMatrix) and conMatrix:dim() == 2 and conMatrix:size(2) == 2,
          torch.type(self) .. '(connTable, kW, kH[, dW, dH]): connTable must be a K x 2 tensor')
   self.kW, self.kH = kW, kH
   self.dW, self.dH = dW or 1, dH or 1
   self.connTable = conMatrix
   self.nInputPlane = self.connTable:select(2, 1):max()
   self.nOutputPlane = self.connTable:select(2, 2):max()
   self.weight = torch.Tensor(self.connTable:size(1), kH, kW)
   self.gradWeight = torch.Tensor(self.connTable:size(1), kH, kW):zero()
   self.bias = torch.Tensor(self.nOutputPlane)
   self.gradBias = torch.Tensor(self.nOutputPlane):zero()
   self.dense = nn[self.denseClass](self.nInputPlane, self.nOutputPlane, kW, kH, self.dW, self.dH)
   self:reset()
end

function SpatialConvolutionMap:reset(stdv)
   if stdv then
      self.weight:uniform(-stdv, stdv)
      self.bias:uniform(-stdv, stdv)
   else
      -- each output plane's kernels scaled by its fan-in (kW * kH per connection)
      local fanIn = torch.zeros(self.nOutputPlane)
      for k = 1, self.connTable:size(1) do
         local o = self.connTable[k][2]
         fanIn[o] = fanIn[o] + 1
      end
      for k = 1, self.connTable:size(1) do
         local s = 1 / math.sqrt(self.kW * self.kH * fanIn[self.connTable[k][2]])
         self.weight[k]:uniform(-s, s)
      end
      for o = 1, self.nOutputPlane do
         local s = 1 / math.sqrt(self.kW * self.kH * math.max(fanIn[o], 1))
         self.bias[o] = torch.uniform(-s, s)
      end
   end
end

-- The dense module's results are copied into the module's own tensors, so that code which
-- swaps a module's output or gradInput for a pass (nn.hessian) works as with any module.
function SpatialConvolutionMap:updateOutput(input)
   densify(self, input)
   local output = self.dense:updateOutput(input)
   self.output:resizeAs(output):copy(output)
   return self.output
end

function SpatialConvolutionMap:updateGradInput(input, gradOutput)
   densify(self, input)
   local gradInput = self.dense:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(gradInput):copy(gradInput)
   return self.gradInput
end

function SpatialConvolutionMap:accGradParameters(input, gradOutput, scale)
   fitInput(self, input)
   self.dense.gradWeight:zero()
   self.dense.gradBias = self.gradBias
   self.dense:accGradParameters(input, gradOutput, scale)
   sparsify(self)
end

function SpatialConvolutionMap:__tostring__()
   return string.format('%s(%d -> %d, %dx%d, %d,%d)', torch.type(self), self.nInputPlane, self.nOutputPlane,
                        self.kW, self.kH, self.dW, self.dH)
end
