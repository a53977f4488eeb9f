package io.gpumeter.ledger.json;

/**
 * Texts and what was made of them, looked up by the characters a JSON parser holds for its current token, so that a
 * text read before costs no new string: an open-addressing table, linear probing, grown at half full. Not shared
 * between threads.
 */
final class TextTable<V> {

    private String[] keys = new String[64];
    private Object[] values = new Object[64];
    private int size;

    /**
     * The slot holding {@code chars[offset, offset + length)} as a key (zero or more), or the free slot where it goes
     * as {@code -slot - 1}.
     */
    int find(char[] chars, int offset, int length) {
        int mask = keys.length - 1;
        for (int slot = hash(chars, offset, length) & mask; ; slot = (slot + 1) & mask) {
            String key = keys[slot];
            if (key == null) {
                return -slot - 1;
            }
            if (matches(key, chars, offset, length)) {
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
        Object[] oldValues = values;
        keys = new String[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            String key = oldKeys[i];
            if (key != null) {
                int slot = hash(key) & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = key;
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

    private static boolean matches(String key, char[] chars, int offset, int length) {
        if (key.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (key.charAt(i) != chars[offset + i]) {
                return false;
            }
        }
        return true;
    }
}
