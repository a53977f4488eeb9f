package io.gpumeter.ledger.json;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextTableTest {

    /** Looks {@code text} up from the middle of a larger buffer, as a parser holds it, and adds it when absent. */
    private static String canonical(TextTable<String> table, String text) {
        char[] buffer = ("[[" + text + "]]").toCharArray();
        int slot = table.find(buffer, 2, text.length());
        if (slot >= 0) {
            return table.key(slot);
        }
        String copy = new String(buffer, 2, text.length());
        table.put(slot, copy, copy);
        return copy;
    }

    @Test
    void aTextReadAgainIsTheInstanceFirstAdded() {
        TextTable<String> table = new TextTable<>();
        String first = canonical(table, "pod-7f9c");
        String again = canonical(table, new String("pod-7f9c"));

        assertSame(first, again);
        assertEquals(1, table.size());
    }

    @Test
    void textsThatDifferAreNeverTakenForEachOther() {
        // "Aa" and "BB" share String's hash; a prefix, a longer text, the empty text and non-ASCII letters besides.
        List<String> texts = List.of("Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa", "", "a", "ab", "abc", "ab ", "é", "e\u0301",
                "2026-05-01T00:00:00Z", "2026-05-01T00:00:01Z");
        TextTable<String> table = new TextTable<>();
        List<String> added = new ArrayList<>();
        for (String text : texts) {
            added.add(canonical(table, text));
        }
        for (int i = 0; i < texts.size(); i++) {
            String found = canonical(table, texts.get(i));
            assertEquals(texts.get(i), found);
            assertSame(added.get(i), found, texts.get(i));
        }
        assertEquals(texts.size(), table.size());
    }

    @Test
    void aTableGrownPastItsFirstSizeStillFindsEveryText() {
        TextTable<Integer> table = new TextTable<>();
        for (int i = 0; i < 10_000; i++) {
            char[] chars = ("uid-" + i).toCharArray();
            int slot = table.find(chars, 0, chars.length);
            assertTrue(slot < 0, "uid-" + i + " was not added yet");
            table.put(slot, new String(chars), i);
        }
        for (int i = 0; i < 10_000; i++) {
            char[] chars = ("uid-" + i).toCharArray();
            int slot = table.find(chars, 0, chars.length);
            assertEquals(i, table.value(slot));
            assertEquals("uid-" + i, table.key(slot));
        }
        assertEquals(10_000, table.size());
    }

    @Test
    void onlyAFreeSlotTakesAKey() {
        TextTable<String> table = new TextTable<>();
        char[] chars = "node-1".toCharArray();
        int free = table.find(chars, 0, chars.length);
        table.put(free, "node-1", "node-1");
        int taken = table.find(chars, 0, chars.length);

        assertThrows(IllegalArgumentException.class, () -> table.put(-taken - 1, "node-2", "node-2"));
        assertThrows(IllegalArgumentException.class, () -> table.put(taken, "node-2", "node-2"));
    }
}
