import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Slots } from '../../src/mcp/slots.js'

test('at most size holders; the next waiter gets a released slot, in order', async () => {
  const s = new Slots(2)
  await s.acquire()
  await s.acquire()
  const order: number[] = []
  const a = s.acquire().then(() => order.push(1))
  const b = s.acquire().then(() => order.push(2))
  await Promise.resolve()
  assert.equal(s.busy, 2)
  assert.equal(s.queued, 2)
  s.release()
  await a
  assert.deepEqual(order, [1])
  s.release()
  await b
  assert.deepEqual(order, [1, 2])
  s.release()
  s.release()
  assert.equal(s.busy, 0)
})

test('a waiter whose signal aborts leaves the queue and rejects', async () => {
  const s = new Slots(1)
  await s.acquire()
  const c = new AbortController()
  const waiting = s.acquire(c.signal)
  c.abort(new Error('cancelled'))
  await assert.rejects(waiting, /cancelled/)
  assert.equal(s.queued, 0)
  s.release()
  assert.equal(s.busy, 0)
  await assert.rejects(s.acquire(c.signal), /cancelled/)
})

test('size must be a positive integer', () => {
  assert.throws(() => new Slots(0), RangeError)
})
