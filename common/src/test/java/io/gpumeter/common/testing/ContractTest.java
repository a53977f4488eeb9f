package io.gpumeter.common.testing;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContractTest {

    /** A caller's own view of a read: three fields of the server's five, and a nested list. */
    record Row(String key, Map<String, String> group, BigDecimal allocatedGpuHours, List<Unit> units) {
    }

    record Unit(String from) {
    }

    private static final String SERVER = """
            [{"key":"acme","group":{"tenant":"acme"},"allocatedGpuHours":1.5,"usedGpuHours":0.5,
              "units":[{"from":"2026-03-01T00:00:00Z","to":"2026-03-02T00:00:00Z"}]}]""";

    @Test
    void aCallerReadsTheFieldsTheServerAnswers() {
        List<Row> rows = Contract.ofJson("ledger gpu-hours", SERVER).readListOf(Row.class);
        assertEquals(1, rows.size());
        assertEquals(new BigDecimal("1.5"), rows.get(0).allocatedGpuHours());
        assertEquals("acme", rows.get(0).group().get("tenant"));
        assertEquals("2026-03-01T00:00:00Z", rows.get(0).units().get(0).from());
    }

    @Test
    void aFieldRenamedOnTheServerFailsTheCaller() {
        Contract renamed = Contract.ofJson("ledger gpu-hours", SERVER.replace("allocatedGpuHours", "allocatedHours"));
        AssertionError error = assertThrows(AssertionError.class, () -> renamed.readListOf(Row.class));
        assertTrue(error.getMessage().contains("[[].allocatedGpuHours]"), error.getMessage());
        Contract nestedRenamed = Contract.ofJson("ledger gpu-hours", SERVER.replace("\"from\"", "\"since\""));
        error = assertThrows(AssertionError.class, () -> nestedRenamed.readListOf(Row.class));
        assertTrue(error.getMessage().contains("[[].units[].from]"), error.getMessage());
    }

    @Test
    void aFieldTheServerLeftNullCannotBeJudgedBelowIt() {
        Contract unitsNull = Contract.ofJson("ledger gpu-hours", SERVER.replace(
                "[{\"from\":\"2026-03-01T00:00:00Z\",\"to\":\"2026-03-02T00:00:00Z\"}]", "null"));
        assertEquals(1, unitsNull.readListOf(Row.class).size());
    }

    @Test
    void aCannedAnswerMayLeaveFieldsOutButHoldNoneTheServerLacks() {
        Contract contract = Contract.ofJson("ledger gpu-hours", SERVER).freeKeysAt("group");
        String subset = "[{\"key\":\"beta\",\"group\":{\"team\":\"vision\",\"day\":\"2026-03-01\"},\"allocatedGpuHours\":2}]";
        assertEquals(subset, contract.check(subset));
        AssertionError error = assertThrows(AssertionError.class,
                () -> contract.check("[{\"key\":\"beta\",\"allocatedHours\":2,\"units\":[{\"since\":\"x\"}]}]"));
        assertTrue(error.getMessage().contains("[[].allocatedHours, [].units[].since]"), error.getMessage());
        AssertionError fixedGroup = assertThrows(AssertionError.class, () -> Contract.ofJson("ledger gpu-hours", SERVER)
                .check("[{\"group\":{\"team\":\"vision\"}}]"));
        assertTrue(fixedGroup.getMessage().contains("[].group.team"), fixedGroup.getMessage());
    }

    @Test
    void aFieldOneAnswerLeavesOutIsCheckedAgainstAnotherThatHasIt() {
        // the server leaves "usedGpuHours" out when it is null: one answer has it, the other does not
        record Used(String key, BigDecimal usedGpuHours) {
        }
        Contract without = Contract.ofJson("ledger gpu-hours", "[{\"key\":\"beta\"}]");
        assertThrows(AssertionError.class, () -> without.readListOf(Used.class));
        List<Used> both = without.with(Contract.ofJson("ledger gpu-hours", SERVER)).readListOf(Used.class);
        assertEquals(List.of("beta", "acme"), both.stream().map(Used::key).toList());
        assertEquals(new BigDecimal("0.5"), both.get(1).usedGpuHours());
        AssertionError neither = assertThrows(AssertionError.class, () -> without.with(without).readListOf(Used.class));
        assertTrue(neither.getMessage().contains("[[].usedGpuHours]"), neither.getMessage());
        assertThrows(IllegalArgumentException.class, () -> without.with(Contract.ofJson("ledger capacity", "{\"cards\":1}")));
    }
}
