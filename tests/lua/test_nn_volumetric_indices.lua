-- VolumetricMaxPooling's indices as torch7 wrote them (Note [Packed volumetric indices] in
-- lua/nn/VolumetricMaxPooling.lua): a module loaded with torch7's packed window offsets
-- goes backward, and unpools, as if it had run forward itself. The packed form is made
-- here by a plain loop from the geometry, and the backward is compared with that of the
-- module that ran forward.
require 'nn'
local tests = {}

-- torch7's packed form of the 1-based flat positions `flat` (shaped like the output) for
-- an input volume T x H x W: the 0-based offsets of each position in its window, divided
-- by the dilation, as bytes t | h << 8 | w << 16, with garbage in the high bytes (torch7
-- wrote only the low four bytes of each long).
local function pack(flat, module, T, H, W)
   local n = flat:dim()
   local oT, oH, oW = flat:size(n - 2), flat:size(n - 1), flat:size(n)
   local d = { module.dilationT or 1, module.dilationH or 1, module.dilationW or 1 }
   local src, packed = flat:contiguous():view(-1), torch.LongTensor(flat:nElement())
   for j = 0, src:nElement() - 1 do
      local out = { math.floor(j / (oW * oH)) % oT, math.floor(j / oW) % oH, j % oW }
      local pos = src[j + 1] - 1
      local coord = { math.floor(pos / (H * W)), math.floor(pos / W) % H, pos % W }
      local start = { out[1] * module.dT - module.padT, out[2] * module.dH - module.padH,
                      out[3] * module.dW - module.padW }
      local bytes = 0
      for i = 1, 3 do
         local offset = (coord[i] - start[i]) / d[i]
         assert(offset >= 0 and offset < 256 and offset % 1 == 0)
         bytes = bytes + offset * 256 ^ (i - 1)
      end
      packed[j + 1] = bytes + (j % 3 - 1) * 2 ^ 32  -- high bytes: 0, all ones, or 1
   end
   return packed:viewAs(flat)
end

-- module runs forward on x; a copy given the packed indices (as loading a torch7 file
-- would) gives the same gradInput and ends up with the same indices.
local function checkPackedBackward(module, x, msg)
   local n = x:dim()
   local y = module:forward(x)
   local gradOutput = torch.randn(y:size())
   local expected = module:backward(x, gradOutput):clone()
   local loaded = module:clone()
   loaded.indices = pack(module.indices, module, x:size(n - 2), x:size(n - 1), x:size(n))
   check.ok(not loaded.indices:equal(module.indices), msg .. ': the packed form differs')
   check.tensor(loaded:backward(x, gradOutput), expected:totable(), 0, msg .. ': gradInput from packed indices')
   check.ok(loaded.indices:equal(module.indices), msg .. ': packed indices decoded to flat positions')
   -- flat positions are used as they are
   local again = module:clone()
   check.tensor(again:backward(x, gradOutput), expected:totable(), 0, msg .. ': gradInput from flat indices')
   check.ok(again.indices:equal(module.indices), msg .. ': flat indices left as they were')
end

function tests.maxpooling_backward_from_packed_indices()
   checkPackedBackward(nn.VolumetricMaxPooling(2, 3, 2, 2, 2, 1, 1, 1, 1), torch.randn(2, 3, 5, 6, 7), 'batch, padded')
   checkPackedBackward(nn.VolumetricMaxPooling(2, 2, 2), torch.randn(2, 4, 6, 4), 'single volume')
   checkPackedBackward(nn.VolumetricMaxPooling(3, 3, 3, 2, 2, 2):ceil(), torch.randn(1, 2, 6, 7, 6), 'ceil mode')
end

function tests.dilated_backward_from_packed_indices()
   checkPackedBackward(nn.VolumetricDilatedMaxPooling(2, 2, 3, 1, 2, 1, 0, 1, 1, 2, 1, 2), torch.randn(2, 2, 6, 7, 8),
                       'dilated')
end

function tests.unpooling_from_packed_indices()
   local pool = nn.VolumetricMaxPooling(2, 2, 2)
   local x = torch.randn(2, 3, 4, 6, 4)
   local y = pool:forward(x)
   local unpool = nn.VolumetricMaxUnpooling(pool)
   local expected = unpool:forward(y):clone()
   local loaded = pool:clone()
   loaded.indices = pack(pool.indices, pool, 4, 6, 4)
   check.tensor(nn.VolumetricMaxUnpooling(loaded):forward(y), expected:totable(), 0, 'unpooling from packed indices')
   check.ok(loaded.indices:equal(pool.indices), 'packed indices decoded for unpooling')
end

function tests.indices_of_neither_form_raise()
   local pool = nn.VolumetricMaxPooling(2, 2, 2)
   local x = torch.randn(1, 4, 4, 4)
   local y = pool:forward(x)
   local gradOutput = torch.randn(y:size())
   local bad = pool:clone()
   bad.indices = pool.indices:clone():fill(2 ^ 20)  -- t = h = 0, w = 16: outside a 2-wide window
   check.raises(function() bad:backward(x, gradOutput) end, 'run forward on this input first', 'bad indices')
   check.ok(bad.indices:eq(2 ^ 20):all(), 'the bad indices left unchanged')
   -- indices of a larger input: positions outside this input's windows
   local big = nn.VolumetricMaxPooling(2, 2, 2)
   big:forward(torch.randn(1, 8, 8, 8))
   big.indices = big.indices:narrow(2, 1, 2):narrow(3, 1, 2):narrow(4, 1, 2):clone()
   big.indices:fill(8 * 8 * 8)
   check.raises(function() big:backward(x, gradOutput) end, 'neither positions', 'positions of another input')
   check.raises(function() nn.VolumetricMaxPooling(2, 2, 2):backward(x, gradOutput) end, 'run forward first',
                'backward before any forward')
end

return tests
