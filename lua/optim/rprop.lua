-- Resilient backpropagation, torch7's optim.rprop: per coordinate, the step size grows by
-- etaplus while the gradient keeps its sign and shrinks by etaminus when it flips (and that
-- coordinate then does not move); x = x - sign(g) .* stepsize.
-- config: stepsize (0.1, the first step size), etaplus (1.2), etaminus (0.5),
--   stepsizemax (50), stepsizemin (1e-6), niter (1: opfunc calls per optim.rprop call).
-- state: delta (the last gradient used), stepsize, sign.
-- Like torch7, the gradient that opfunc returned is zeroed where its sign flipped.
-- Returns x and the table of the niter values of f.
function optim.rprop(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local stepsize = config.stepsize or 0.1
   local etaplus = config.etaplus or 1.2
   local etaminus = config.etaminus or 0.5
   local stepsizemax = config.stepsizemax or 50.0
   local stepsizemin = config.stepsizemin or 1e-06
   local niter = config.niter or 1

   local hfx = {}
   for _ = 1, niter do
      local fx, dfdx = opfunc(x)

      if not state.delta then
         state.delta = dfdx.new():resizeAs(dfdx):zero()
         state.stepsize = dfdx.new():resizeAs(dfdx):fill(stepsize)
         state.sign = dfdx.new():resizeAs(dfdx)
      end

      -- sign of g .* (last g): > 0 same direction, < 0 flipped, 0 after a flip or at start
      state.sign:cmul(dfdx, state.delta):sign()
      dfdx:map(state.sign, function(g, s) if s < 0 then return 0 end end)
      state.sign:apply(function(s)
         if s > 0 then return etaplus elseif s < 0 then return etaminus end
         return 1
      end)
      state.stepsize:cmul(state.sign):clamp(stepsizemin, stepsizemax)

      state.sign:sign(dfdx)
      x:add(-1, torch.cmul(state.sign, state.stepsize))
      state.delta:copy(dfdx)
      hfx[#hfx + 1] = fx
   end
   return x, hfx
end
