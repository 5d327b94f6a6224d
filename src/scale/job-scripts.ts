/**
 * The bulk queue's atomic steps (docs/scale-out.md, "Guarantees"). A job's lease is its entry in
 * the workers group's pending-entry list plus an epoch in the job's hash: taking a job raises the
 * epoch, and every later step of the worker that took it — a heartbeat, a snapshot, the verdict —
 * runs only while the epoch is still the one it took. A worker that lost its job (stopped past
 * its lease while another took the job over) therefore commits nothing. Only commands Redis 6.2
 * and Valkey both have are used.
 */
import { LuaScript } from "./lua-script.js";

/** The epoch fence every step but `take` opens with; KEYS[2] is the job's hash, ARGV[2] the epoch. */
const FENCE = `if redis.call('HGET', KEYS[2], 'epoch') ~= ARGV[2] then return {0} end`;

/**
 * KEYS: jobs, job hash, dead letters. ARGV: id, consumer, max deliveries, group.
 * The job, if this consumer holds its entry: past max deliveries it goes to the dead letters with
 * its last error ({'dead', snapshot file}); else its epoch is raised and its last snapshot is
 * handed over ({'taken', epoch, deliveries, snapshot, snapshot file, offset, snapshots}).
 * {'lost'}: another consumer claimed it meanwhile, or it is done.
 */
export const TAKE = new LuaScript(`
local pending = redis.call('XPENDING', KEYS[1], ARGV[4], ARGV[1], ARGV[1], 1)
local entry = pending[1]
if entry == nil or entry[2] ~= ARGV[2] then return {'lost'} end
local deliveries = tonumber(entry[4])
if deliveries > tonumber(ARGV[3]) then
  local location = ''
  local found = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1])
  if found[1] then
    local fields = found[1][2]
    for i = 1, #fields, 2 do
      if fields[i] == 'location' then location = fields[i + 1] end
    end
  end
  local err = redis.call('HGET', KEYS[2], 'error')
  if not err then err = 'its workers stopped (killed, or past their lease) before finishing it' end
  local file = redis.call('HGET', KEYS[2], 'snapshotFile') or ''
  redis.call('XADD', KEYS[3], '*', 'job', ARGV[1], 'location', location,
    'deliveries', deliveries, 'error', err)
  redis.call('XACK', KEYS[1], ARGV[4], ARGV[1])
  redis.call('XDEL', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2])
  return {'dead', file}
end
local epoch = redis.call('HINCRBY', KEYS[2], 'epoch', 1)
local state = redis.call('HMGET', KEYS[2], 'snapshot', 'snapshotFile', 'offset', 'snapshots')
return {'taken', epoch, deliveries, state[1] or '', state[2] or '', state[3] or '0', state[4] or '0'}
`);

/** KEYS: jobs, job hash. ARGV: id, epoch, group, consumer. Keeps the entry's idle time at zero. */
export const HEARTBEAT = new LuaScript(`
${FENCE}
redis.call('XCLAIM', KEYS[1], ARGV[3], ARGV[4], 0, ARGV[1], 'JUSTID')
return {1}
`);

/**
 * KEYS: jobs, job hash. ARGV: id, epoch, group, consumer, offset, snapshot, snapshot file.
 * Stores the snapshot (inline, or the file holding it) and how far the journal was read.
 * {1, the previous snapshot file}, or {0} when fenced.
 */
export const COMMIT = new LuaScript(`
${FENCE}
local previous = redis.call('HGET', KEYS[2], 'snapshotFile') or ''
redis.call('HSET', KEYS[2], 'offset', ARGV[5], 'snapshot', ARGV[6], 'snapshotFile', ARGV[7])
redis.call('HINCRBY', KEYS[2], 'snapshots', 1)
redis.call('XCLAIM', KEYS[1], ARGV[3], ARGV[4], 0, ARGV[1], 'JUSTID')
return {1, previous}
`);

/**
 * KEYS: jobs, job hash, results. ARGV: id, epoch, group, location, result, then journal and
 * finding pairs (a live journal's breaches since its last checkpoint). Publishes them and the
 * verdict and acknowledges the job in one step. {1, snapshot file}, or {0}.
 */
export const FINISH = new LuaScript(`
${FENCE}
local previous = redis.call('HGET', KEYS[2], 'snapshotFile') or ''
for i = 6, #ARGV, 2 do
  redis.call('XADD', KEYS[3], '*', 'journal', ARGV[i], 'finding', ARGV[i + 1])
end
redis.call('XADD', KEYS[3], '*', 'job', ARGV[1], 'location', ARGV[4], 'result', ARGV[5])
redis.call('XACK', KEYS[1], ARGV[3], ARGV[1])
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return {1, previous}
`);

/**
 * KEYS: jobs, job hash. ARGV: id, epoch, group, the model the directory's job names and its
 * digest (each '' for none), then the journals of the directory. Replaces the directory's job by
 * one job per journal, naming the same model, in one step. {1}, or {0}.
 */
export const EXPAND = new LuaScript(`
${FENCE}
local model = {}
if ARGV[4] ~= '' then model = {'model', ARGV[4]} end
if ARGV[5] ~= '' then model = {'model', ARGV[4], 'modelDigest', ARGV[5]} end
for i = 6, #ARGV do
  redis.call('XADD', KEYS[1], '*', 'location', ARGV[i], unpack(model))
end
redis.call('XACK', KEYS[1], ARGV[3], ARGV[1])
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return {1}
`);

/** KEYS: jobs, job hash. ARGV: id, epoch, error. Keeps the error for the dead letters. */
export const RECORD_ERROR = new LuaScript(`
${FENCE}
redis.call('HSET', KEYS[2], 'error', ARGV[3])
return {1}
`);

/**
 * KEYS: live journals, job hash, findings. ARGV: id, epoch, group, consumer, stream id reached,
 * snapshot, unfinished last line, rules published so far (JSON), then journal and finding pairs.
 * A live journal's checkpoint: its snapshot, where its stream was read to and the bytes of a line
 * not yet complete, with the findings they brought, in one step. {1}, or {0} when fenced.
 */
export const LIVE_COMMIT = new LuaScript(`
${FENCE}
redis.call('HSET', KEYS[2], 'offset', ARGV[5], 'snapshot', ARGV[6], 'tail', ARGV[7],
  'published', ARGV[8], 'snapshotFile', '')
redis.call('HINCRBY', KEYS[2], 'snapshots', 1)
for i = 9, #ARGV, 2 do
  redis.call('XADD', KEYS[3], '*', 'journal', ARGV[i], 'finding', ARGV[i + 1])
end
redis.call('XCLAIM', KEYS[1], ARGV[3], ARGV[4], 0, ARGV[1], 'JUSTID')
return {1}
`);
