package io.gpumeter.ledger.governance.domain;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The layouts read from the GPU Operator's default-mig-parted-config and from a cluster's own file. */
class MigLayoutsTest {

    static final MigLayouts DEFAULTS = MigLayouts.defaults();

    static String custom() throws IOException {
        try (InputStream in = MigLayoutsTest.class.getResourceAsStream("/mig/custom-mig-parted.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theOperatorsDefaultsByName() {
        assertEquals(List.of(Map.of()), DEFAULTS.find("all-disabled").orElseThrow().perCard().orElseThrow());
        assertEquals(List.of(Map.of("1g.5gb", 7)), DEFAULTS.find("all-1g.5gb").orElseThrow().perCard().orElseThrow());
        // the media-extension profile as nvidia-smi spells it
        assertEquals(List.of(Map.of("1g.5gb+me", 1)), DEFAULTS.find("all-1g.5gb.me").orElseThrow().perCard().orElseThrow());
        // seven on an 80 GB card, four on a 40 GB one: which one a node's card is, its device id would say
        assertEquals(List.of(Map.of("1g.10gb", 7), Map.of("1g.10gb", 4)),
                DEFAULTS.find("all-1g.10gb").orElseThrow().perCard().orElseThrow());
        List<Map<String, Integer>> balanced = DEFAULTS.find("all-balanced").orElseThrow().perCard().orElseThrow();
        assertEquals(10, balanced.size());
        assertTrue(balanced.contains(Map.of("1g.10gb", 2, "2g.20gb", 1, "3g.40gb", 1)));
        assertTrue(balanced.contains(Map.of("1g.6gb", 2, "2g.12gb", 1)), "A30's filter is a single string");
        assertEquals(List.of(Map.of("1g.10gb", 28), Map.of("1g.10gb", 16)),
                DEFAULTS.find("all-1g.10gb").orElseThrow().totalsOn(4));
        assertTrue(DEFAULTS.size() > 60, "every layout of the ConfigMap: " + DEFAULTS.size());
    }

    @Test
    void aLayoutNobodyNamesIsUnknown() {
        assertTrue(DEFAULTS.find("all-3g.41gb").isEmpty());
        assertTrue(DEFAULTS.find(null).isEmpty());
    }

    @Test
    void aClustersOwnFileAddsAndOverrides() throws IOException {
        MigLayouts mine = DEFAULTS.with(custom(), "custom-mig-parted.yaml");
        MigLayout half = mine.find("half-1g.10gb").orElseThrow();
        assertTrue(half.perCard().isEmpty(), "cards named by index: only the node's totals compare");
        assertEquals(Map.of("1g.10gb", 28), half.exactTotals().orElseThrow());
        assertEquals(List.of(Map.of("1g.10gb", 2, "2g.20gb", 1, "3g.40gb", 1)),
                mine.find("all-balanced").orElseThrow().perCard().orElseThrow());
        assertTrue(mine.find("all-1g.10gb").isPresent(), "the defaults stay");
    }

    @Test
    void aBrokenFileSaysWhere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DEFAULTS.with("""
                version: v1
                mig-configs:
                  odd:
                    - devices: all
                      mig-enabled: true
                      mig-devices:
                        "9g.10gb": 1
                """, "odd.yaml"));
        assertTrue(e.getMessage().startsWith("odd.yaml: mig-configs.odd[0].mig-devices"), e.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DEFAULTS.with("kind: ConfigMap\n", "cm.yaml"))
                .getMessage().contains("no mig-configs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DEFAULTS.with("mig-configs:\n  x:\n    - devices: some\n",
                "x.yaml")).getMessage().contains("x.yaml: mig-configs.x[0].devices"));
    }
}
