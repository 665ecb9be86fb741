"""One .t7 format for both bindings: what Python's save_lua writes, the Lua package's
torch.load reads as the same objects torch7's original file gives it, and what Lua's
torch.save writes, load_lua reads with values and sharing intact. Runs in one process
through torch.lua (the Lua side is this project's Lua package)."""

import numpy as np
import pytest

import torch
from legacy_helpers import fixture
from torch.utils.serialization import load_lua, save_lua

import torch.lua as tl  # scripts/build.sh builds the bridge: where it is missing, the suite fails

FIXTURES = ["tensors.t7", "mlp.t7", "mlp_ascii.t7", "mlp_io.t7", "cnn.t7", "cnn_io.t7", "rng.t7"]

# Structural equality written in Lua, so that the comparison happens on the Lua side with
# torch7's own notion of the objects: same class names, same tensor types, sizes and values,
# tables with the same keys; returns nil or the path of the first difference.
SAME = r"""
local function same(a, b, path, seen)
   if torch.typename(a) ~= torch.typename(b) or type(a) ~= type(b) then
      return path .. ': ' .. torch.type(a) .. ' vs ' .. torch.type(b)
   end
   if torch.isTensor(a) then
      if a:nElement() ~= b:nElement() then return path .. ': element counts differ' end
      if a:nElement() == 0 then return nil end
      if not a:isSameSizeAs(b) then return path .. ': sizes differ' end
      if not a:double():equal(b:double()) then return path .. ': values differ' end
      return nil
   end
   if torch.isStorage(a) then
      if a:size() ~= b:size() then return path .. ': storage sizes differ' end
      for i = 1, a:size() do
         if a[i] ~= b[i] then return path .. '[' .. i .. ']: values differ' end
      end
      return nil
   end
   if type(a) == 'table' then
      if seen[a] then return nil end
      seen[a] = true
      for k, v in pairs(a) do
         local d = same(v, b[k], path .. '.' .. tostring(k), seen)
         if d then return d end
      end
      for k in pairs(b) do
         if a[k] == nil then return path .. '.' .. tostring(k) .. ': missing' end
      end
      return nil
   end
   if a ~= b then return path .. ': ' .. tostring(a) .. ' vs ' .. tostring(b) end
   return nil
end
return function(p, q)
   return same(torch.load(p), torch.load(q), 'root', {})
end
"""


@pytest.fixture(scope="module")
def rt():
    rt = tl.Runtime()
    rt.require("nn")
    return rt


@pytest.mark.parametrize("fmt", ["binary", "ascii"])
@pytest.mark.parametrize("name", FIXTURES)
def test_python_saves_what_lua_loads_as_torch7s_file(rt, name, fmt, tmp_path):
    out = str(tmp_path / name)
    save_lua(load_lua(fixture(name)), out, format=fmt)
    difference = rt.execute(SAME)(fixture(name), out)
    assert difference is None, difference


def test_lua_saves_what_python_loads_with_sharing(rt, tmp_path):
    out = str(tmp_path / "from_lua.t7")
    rt.execute(
        """
      torch.manualSeed(7)
      local base = torch.randn(4, 5)
      local obj = { base = base, rows = base:narrow(1, 2, 2), col = base:select(2, 3),
                    ints = torch.LongTensor({ 3, 1, 2 }), bytes = torch.ByteTensor(2, 2):fill(200),
                    name = 'from lua', n = 2.5, flag = true, list = { 10, 20, 30 },
                    model = nn.Sequential():add(nn.Linear(5, 3)):add(nn.Tanh()) }
      torch.save(%r, obj)
      _G.saved = obj
    """
        % out
    )
    saved = rt["saved"]
    got = load_lua(out)
    base = saved["base"]
    np.testing.assert_array_equal(got["base"].numpy(), base.numpy())
    np.testing.assert_array_equal(got["rows"].numpy(), base.numpy()[1:3])
    np.testing.assert_array_equal(got["col"].numpy(), base.numpy()[:, 2])
    # the three views stay views of one storage after the trip
    got["base"][1, 2] = 123.0
    assert got["rows"][0, 2] == 123.0 and got["col"][1] == 123.0
    np.testing.assert_array_equal(got["ints"].numpy(), [3, 1, 2])
    assert got["bytes"].dtype == torch.uint8 and (got["bytes"] == 200).all()
    assert got["name"] == "from lua" and got["n"] == 2.5 and got["flag"] is True
    assert got["list"] == [10, 20, 30]
    model = got["model"]
    assert type(model).__name__ == "Sequential" and len(model.modules) == 2
    x = torch.randn(6, 5, dtype=torch.float64)
    lua_out = saved["model"].forward(x).clone()
    np.testing.assert_allclose(model.forward(x).numpy(), lua_out.numpy(), rtol=1e-12, atol=1e-12)


def test_a_model_trained_in_python_runs_the_same_in_lua(rt, tmp_path):
    io = load_lua(fixture("mlp_io.t7"))
    mlp = load_lua(fixture("mlp.t7"))
    # a few legacy SGD steps in Python change the weights away from the file's
    crit = torch.legacy.nn.MSECriterion()
    target = torch.zeros(3, 5, dtype=torch.float64)
    for _ in range(3):
        mlp.zeroGradParameters()
        out = mlp.forward(io["input"])
        crit.forward(out, target)
        mlp.backward(io["input"], crit.backward(out, target))
        mlp.updateParameters(0.1)
    expected = mlp.forward(io["input"]).clone()
    out_path = str(tmp_path / "trained.t7")
    save_lua(mlp, out_path)
    lua_model = rt.eval("function(p) return torch.load(p) end")(out_path)
    got = lua_model.forward(io["input"])
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12, atol=1e-14)
    assert not np.allclose(got.numpy(), io["output"].numpy()), "training changed nothing"
