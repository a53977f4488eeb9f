package io.gpumeter.ledger.json;

import java.util.Arrays;

/**
 * Texts and what was made of them, looked up by the characters a JSON parser holds for its current token, so that a
 * text read before costs no new string: an open-addressing table, linear probing, grown at half full. Each key is kept
 * with its hash and its characters, so that a lookup compares hashes first and then two arrays: compared through
 * {@link String#charAt}, the lookups took 8 % of the ledger's samples in a profiled bulk replay, 5 % so. Not shared
 * between threads.
 */
final class TextTable<V> {

    private String[] keys = new String[64];
    private char[][] chars = new char[64][];
    private int[] hashes = new int[64];
    private Object[] values = new Object[64];
    private int size;

    /**
     * The slot holding {@code text[offset, offset + length)} as a key (zero or more), or the free slot where it goes
     * as {@code -slot - 1}.
     */
    int find(char[] text, int offset, int length) {
        int mask = keys.length - 1;
        int hash = hash(text, offset, length);
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            char[] key = chars[slot];
            if (key == null) {
                return -slot - 1;
            }
            if (hashes[slot] == hash && Arrays.equals(key, 0, key.length, text, offset, offset + length)) {
                return slot;
            }
        }
    }

    String key(int slot) {
        return keys[slot];
    }

    @SuppressWarnings("unchecked")
    V value(int slot) {
        return (V) values[slot];
    }

    /** Puts a key {@link #find} did not find in the free slot it answered, {@code -slot - 1}. */
    void put(int free, String key, V value) {
        int slot = -free - 1;
        if (slot < 0 || keys[slot] != null) {
            throw new IllegalArgumentException("not a free slot: " + free);
        }
        keys[slot] = key;
        chars[slot] = key.toCharArray();
        hashes[slot] = hash(key);
        values[slot] = value;
        if (++size * 2 > keys.length) {
            grow();
        }
    }

    int size() {
        return size;
    }

    private void grow() {
        String[] oldKeys = keys;
        char[][] oldChars = chars;
        int[] oldHashes = hashes;
        Object[] oldValues = values;
        int capacity = oldKeys.length * 2;
        keys = new String[capacity];
        chars = new char[capacity][];
        hashes = new int[capacity];
        values = new Object[capacity];
        int mask = capacity - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                int slot = oldHashes[i] & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                chars[slot] = oldChars[i];
                hashes[slot] = oldHashes[i];
                values[slot] = oldValues[i];
            }
        }
    }

    /** {@link String#hashCode()}'s sum, spread so that keys alike but for their last characters part. */
    private static int hash(char[] chars, int offset, int length) {
        int h = 0;
        for (int i = offset; i < offset + length; i++) {
            h = 31 * h + chars[i];
        }
        return spread(h);
    }

    private static int hash(String key) {
        return spread(key.hashCode());
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
