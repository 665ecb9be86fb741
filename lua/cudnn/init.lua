-- `require 'cudnn'`: cudnn.torch's modules on cuDNN. Needs cutorch (so a GPU: without one,
-- cutorch's error). The cudnn.torch module set is not written yet; files that hold its modules
-- load on the CPU as their nn equivalents with torch.load(filename, mode, {cudaToCpu = true})
-- (Note [cudnn modules on the CPU] in lua/torch/File.lua).
local ok, err = pcall(require, 'cutorch')
if not ok then
   package.loaded.cudnn = nil  -- so that the next require raises the cause again
   error(err, 0)
end
package.loaded.cudnn = nil
error('cudnn: cudnn.torch\'s modules are not available in this build yet; torch.load(filename, mode, '
      .. '{cudaToCpu = true}) loads models holding them as nn modules on the CPU', 0)
