-- nn.CosineDistance: input {a, b}, two vectors or two batches of rows; the output is
-- a . b / sqrt((|a|^2 + eps) (|b|^2 + eps)), eps = 1e-12, of size [1] or [B].
local CosineDistance, parent = torch.class('nn.CosineDistance', 'nn.Module')

local eps = 1e-12

function CosineDistance:__init()
   parent.__init(self)
   self.gradInput = { torch.Tensor(), torch.Tensor() }
end

local function rowSums(t) return t:sum(2):select(2, 1) end

function CosineDistance:updateOutput(input)
   local a, b = nn.DotProduct.rows(self, input)
   self.buffer = self.buffer or a.new()
   self.dot = rowSums(self.buffer:resizeAs(a):copy(a):cmul(b))
   self.aa = rowSums(self.buffer:copy(a):cmul(a)):add(eps)
   self.bb = rowSums(self.buffer:copy(b):cmul(b)):add(eps)
   -- w = 1 / sqrt(aa bb)
   self.w = self.aa:clone():cmul(self.bb):sqrt():pow(-1)
   self.output:resize(a:size(1)):copy(self.dot):cmul(self.w)
   return self.output
end

-- d/da = w b - (dot w / aa) a, and the same with a and b swapped
function CosineDistance:updateGradInput(input, gradOutput)
   local a, b = nn.DotProduct.rows(self, input)
   local go = gradOutput:contiguous():view(-1)
   for i = 1, 2 do
      if not torch.isTensor(self.gradInput[i]) then self.gradInput[i] = a.new() end
   end
   local function grad(result, x, y, xx)
      local coefY = self.w:clone():cmul(go):view(-1, 1):expandAs(x)
      local coefX = self.output:clone():cdiv(xx):cmul(go):view(-1, 1):expandAs(x)
      result:resizeAs(x):copy(y):cmul(coefY):add(-1, x:clone():cmul(coefX))
   end
   grad(self.gradInput[1]:resizeAs(input[1]):view(a:size()), a, b, self.aa)
   grad(self.gradInput[2]:resizeAs(input[2]):view(a:size()), b, a, self.bb)
   return self.gradInput
end

function CosineDistance:clearState()
   nn.utils.clear(self, 'buffer', 'dot', 'aa', 'bb', 'w')
   return parent.clearState(self)
end
