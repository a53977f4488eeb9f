package io.gpumeter.ledger.repository;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyPairsTest {

    @ParameterizedTest(name = "{0} → {1} / {2}")
    @CsvSource(delimiter = '|', emptyValue = "", value = {
            "team-a/train-0 | team-a | train-0",
            "gpu.nvidia.com/node-1/pool-a | gpu.nvidia.com | node-1/pool-a", // a DRA pool may hold slashes
            "/orphan | '' | orphan",
            "team-a/ | team-a | ''",
            "team-a// | team-a | /"})
    void aKeyIsSplitAtItsFirstSlash(String key, String first, String second) {
        KeyPairs pairs = KeyPairs.split(List.of(key));
        assertArrayEquals(new String[] {first}, pairs.first());
        assertArrayEquals(new String[] {second}, pairs.second());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', emptyValue = "", value = {"team-a", "''", "no-slash-at-all"})
    void aKeyWithoutASlashMatchesNothing(String key) {
        assertTrue(KeyPairs.split(List.of(key)).isEmpty());
    }

    @Test
    void pairsKeepTheKeysOrder() {
        KeyPairs pairs = KeyPairs.split(List.of("b/2", "skip", "a/1"));
        assertArrayEquals(new String[] {"b", "a"}, pairs.first());
        assertArrayEquals(new String[] {"2", "1"}, pairs.second());
    }
}
