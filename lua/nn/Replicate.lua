-- nn.Replicate(nFeature[, dim = 1[, ndim]]): nFeature copies of the input stacked along a
-- new dimension dim, as a view with stride 0 there. With ndim, an input of more than ndim
-- dimensions is a batch and dim skips the batch dimension.
local Replicate, parent = torch.class('nn.Replicate', 'nn.Module')

function Replicate:__init(nf, dim, ndim)
   parent.__init(self)
   self.nfeatures = nf
   self.dim = dim or 1
   self.ndim = ndim
   if type(nf) ~= 'number' or self.dim < 1 then
      error('nn.Replicate(nFeature[, dim[, ndim]]): a count and a positive dimension expected', 2)
   end
end

function Replicate:_dim(input)
   local rdim = self.dim
   if self.ndim and input:dim() > self.ndim then rdim = rdim + 1 end
   if rdim > input:dim() + 1 then
      error(string.format('nn.Replicate: not enough input dimensions (%d) to replicate along dimension %d',
                          input:dim(), rdim), 3)
   end
   return rdim
end

function Replicate:updateOutput(input)
   local rdim = self:_dim(input)
   local sizes, strides = {}, {}
   for d = 1, input:dim() do
      local at = d < rdim and d or d + 1
      sizes[at], strides[at] = input:size(d), input:stride(d)
   end
   sizes[rdim], strides[rdim] = self.nfeatures, 0
   local Tensor = nn.utils.tensorConstructor(torch.typename(input))
   self.output = Tensor(input:storage(), input:storageOffset(), torch.LongStorage(sizes), torch.LongStorage(strides))
   return self.output
end

function Replicate:updateGradInput(input, gradOutput)
   local rdim = self:_dim(input)
   self.gradInput:resizeAs(input):copy(gradOutput:sum(rdim):select(rdim, 1))
   return self.gradInput
end
