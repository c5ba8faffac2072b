/** The types of byte strings (gostring.ts has their functions; unicode/utf8 takes them too). */
export type GoString = string

declare const goBytes: unique symbol

/**
 * A byte string the compiler tells from text: a plain string is not one, so text handed where
 * bytes are expected without fromText is a compile error. Made by fromText, fromBuffer and the
 * core/go functions that return one; bytesOf for a string whose chars are bytes already.
 * GoString is the unchecked name it replaces, signature by signature, from core/go's out
 * (docs/decisions.md lists those that take it).
 */
export type GoBytes = string & { readonly [goBytes]: true }
