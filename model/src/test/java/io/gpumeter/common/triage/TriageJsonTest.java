package io.gpumeter.common.triage;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TriageJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());

    @Test
    void anAnswerWithoutNamesReadsAsUnmarkedAndTheFixKeepsTheNames() throws Exception {
        Triage unmarked = JSON.readValue("""
                {"subject":{"kind":"POD","namespace":"acme-ml","name":"train-0","tenant":"acme"},
                 "at":"2026-11-02T12:00:00Z","symptom":"PENDING","layer":"control-plane","cause":"cluster-full"}""",
                Triage.class);
        assertNull(unmarked.named(), "no list: not marked, which is not 'names nothing'");
        assertEquals(List.of(), unmarked.evidence());
        Triage marked = new Triage(unmarked.subject(), Instant.parse("2026-11-02T12:00:00Z"), Symptom.PENDING, null,
                "cluster-full", Confidence.HIGH, null, null, null, null, null, null, null,
                List.of(new Triage.Named(Triage.SubjectKind.POD, "initech-ml", "big-0", "initech")));
        Triage fixed = JSON.readValue(JSON.writeValueAsString(marked.withFix(new Triage.Fix("wait", "see it run"))),
                Triage.class);
        assertEquals(marked.named(), fixed.named());
        assertEquals("wait", fixed.fix().action());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "xid-13   | 13 | APPLICATION",
            "xid-48   | 48 | HARDWARE_DRIVER",
            "xid-7    | 7  | UNCLASSIFIED",
            "gpu-lost | -  | -",
            "xid-     | -  | -",
            "xid-4x   | -  | -",
            "xid-99999 | - | -",
    })
    void anXidCauseHasItsCodeAndClass(String cause, Integer code, XidClass xidClass) {
        Optional<Integer> read = XidClass.code(cause);
        assertEquals(Optional.ofNullable(code), read);
        if (code != null) {
            assertEquals(xidClass, XidClass.of(code));
        }
    }
}
