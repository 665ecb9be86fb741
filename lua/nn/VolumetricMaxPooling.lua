-- nn.VolumetricMaxPooling(kT, kW, kH[, dT = kT, dW = kW, dH = kH[, padT = 0, padW = 0,
-- padH = 0]]): the maximum of each kT x kH x kW window of each volume. indices (a LongTensor
-- shaped like the output) holds where each maximum was: the flat offset t*H*W + h*W + w in
-- the volume, counting from 1. :ceil() rounds the output size up. The input's last three
-- sizes are kept (itime, iheight, iwidth) for VolumetricMaxUnpooling.
local VolumetricMaxPooling, parent = torch.class('nn.VolumetricMaxPooling', 'nn.Module')

VolumetricMaxPooling.__version = 2

function VolumetricMaxPooling:__init(kT, kW, kH, dT, dW, dH, padT, padW, padH)
   parent.__init(self)
   self.kT = kT
   self.kW = kW
   self.kH = kH
   self.dT = dT or kT
   self.dW = dW or kW
   self.dH = dH or kH
   self.padT = padT or 0
   self.padW = padW or 0
   self.padH = padH or 0
   self.ceil_mode = false
   self.indices = torch.LongTensor()
end

VolumetricMaxPooling.ceil = nn.utils.setCeilMode
VolumetricMaxPooling.floor = nn.utils.setFloorMode
VolumetricMaxPooling.clearState = nn.utils.maxPoolingClearState

-- The indices tensors known to hold flat positions: written by a forward, or checked.
local flatIndices = setmetatable({}, { __mode = 'k' })

-- floor(x / m) of each element of a LongTensor, for negative ones too.
local function floorDiv(x, m)
   return torch.add(x, -1, torch.remainder(x, m)):div(m)
end

-- The first input position (0-based, padding counted) of each window along axis 2, 3 or 4
-- (t, h, w) of the (n, oT, oH, oW) LongTensor like, expanded to its shape.
local function windowStarts(like, axis, stride, pad)
   local shape = torch.LongStorage({ 1, 1, 1, 1 })
   shape[axis] = like:size(axis)
   return torch.range(0, like:size(axis) - 1):long():mul(stride):add(-pad):view(shape):expandAs(like)
end

-- Note [Packed volumetric indices]: this project's THNN keeps in `indices` the 1-based flat
-- position t*H*W + h*W + w of each maximum in its input volume; torch7's own THNN packed
-- the 0-based offsets of the maximum inside its window as the bytes t | h << 8 | w << 16
-- of each element (the high bytes left as they were), and its files hold them so. Only a
-- backward or an unpooling straight after loading such a file reads them (a forward
-- recomputes them): this gives the indices as flat positions for an input volume of
-- itime x iheight x iwidth, decoding the packed form when the values are no positions
-- inside their windows but bytes inside the kernel, and raises an error for neither.
function VolumetricMaxPooling:flatIndices(itime, iheight, iwidth)
   local indices = nn.utils.poolingIndices(self)
   if flatIndices[indices] then return indices end
   local name = torch.type(self)
   if indices:dim() < 3 or indices:nElement() == 0 then
      error(name .. ': no indices of a forward to go back through; run forward first', 3)
   end
   local n = indices:dim()
   local idx = indices:contiguous():view(-1, indices:size(n - 2), indices:size(n - 1), indices:size(n))
   local size = { itime, iheight, iwidth }
   local k = { self.kT, self.kH, self.kW }
   local d = { self.dilationT or 1, self.dilationH or 1, self.dilationW or 1 }
   local stride = { self.dT, self.dH, self.dW }
   local pad = { self.padT, self.padH, self.padW }

   local pos = idx - 1
   local inside = pos:ge(0):cmul(pos:lt(itime * iheight * iwidth))
   local coords = { floorDiv(pos, iheight * iwidth), torch.remainder(floorDiv(pos, iwidth), iheight),
                    torch.remainder(pos, iwidth) }
   for i = 1, 3 do
      local offset = coords[i] - windowStarts(idx, i + 1, stride[i], pad[i])
      inside:cmul(offset:ge(0)):cmul(offset:le((k[i] - 1) * d[i])):cmul(torch.remainder(offset, d[i]):eq(0))
   end
   if inside:all() then return self:markFlatIndices() end

   local packed = torch.remainder(idx, 2 ^ 32)
   local ok = packed:lt(2 ^ 24)
   for i = 1, 3 do
      local offset = torch.remainder(floorDiv(packed, 256 ^ (i - 1)), 256)
      ok:cmul(offset:lt(k[i]))
      coords[i] = offset:mul(d[i]):add(windowStarts(idx, i + 1, stride[i], pad[i]))
      ok:cmul(coords[i]:ge(0)):cmul(coords[i]:lt(size[i]))
   end
   if not ok:all() then
      error(string.format('%s: indices are neither positions in an input of size %dx%dx%d inside their ' ..
                          "windows nor torch7's packed window offsets; run forward on this input first",
                          name, itime, iheight, iwidth), 3)
   end
   self.indices = coords[1]:mul(iheight):add(coords[2]):mul(iwidth):add(coords[3]):add(1):viewAs(indices)
   return self:markFlatIndices()
end

-- Notes that self.indices hold flat positions (a forward wrote them); gives them.
function VolumetricMaxPooling:markFlatIndices()
   flatIndices[self.indices] = true
   return self.indices
end

function VolumetricMaxPooling:updateOutput(input)
   input.THNN.VolumetricMaxPooling_updateOutput(input, self.output, nn.utils.poolingIndices(self), self.kT, self.kW,
                                                self.kH, self.dT, self.dW, self.dH, self.padT, self.padW, self.padH,
                                                self.ceil_mode)
   self:markFlatIndices()
   local n = input:dim()
   self.itime, self.iheight, self.iwidth = input:size(n - 2), input:size(n - 1), input:size(n)
   return self.output
end

-- The flat indices for a backward on input.
function VolumetricMaxPooling:inputIndices(input)
   local n = input:dim()
   return self:flatIndices(input:size(n - 2), input:size(n - 1), input:size(n))
end

function VolumetricMaxPooling:updateGradInput(input, gradOutput)
   input.THNN.VolumetricMaxPooling_updateGradInput(input, gradOutput, self.gradInput, self:inputIndices(input),
                                                   self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT,
                                                   self.padW, self.padH, self.ceil_mode)
   return self.gradInput
end

function VolumetricMaxPooling:__tostring__()
   return nn.utils.poolingString(self, { self.kT, self.kW, self.kH }, { self.dT, self.dW, self.dH },
                                 { self.padT, self.padW, self.padH })
end
