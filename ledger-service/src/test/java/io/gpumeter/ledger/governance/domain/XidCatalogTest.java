package io.gpumeter.ledger.governance.domain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class XidCatalogTest {

    @ParameterizedTest(name = "Xid {0}")
    @CsvSource(delimiter = '|', value = {
            "13 | APPLICATION | xid-13 | Graphics Engine Exception",
            "31 | APPLICATION | xid-31 | GPU memory page fault",
            "43 | APPLICATION | xid-43 | GPU stopped processing",
            "45 | APPLICATION | xid-45 | Preemptive cleanup, due to previous errors -- Most likely to see when running multiple cuda",
            "48 | HARDWARE_DRIVER | xid-48 | Double Bit ECC Error",
            "63 | HARDWARE_DRIVER | xid-63 | ECC page retirement or row remapping recording event",
            "74 | HARDWARE_DRIVER | xid-74 | NVLINK Error",
            "79 | HARDWARE_DRIVER | gpu-lost | GPU has fallen off the bus",
            "94 | HARDWARE_DRIVER | xid-94 | Contained ECC error",
            "95 | HARDWARE_DRIVER | xid-95 | Uncontained ECC error",
            "119 | HARDWARE_DRIVER | xid-119 | GSP RPC Timeout",
            "7 | UNCLASSIFIED | xid-7 | Invalid or corrupted push buffer address",
            "999 | UNCLASSIFIED | xid-999 | Unknown Error",
    })
    void severityCauseAndText(int code, XidCatalog.Severity severity, String cause, String text) {
        assertEquals(severity, XidCatalog.severity(code));
        assertEquals(cause, XidCatalog.cause(code));
        assertEquals(text, XidCatalog.text(code));
    }
}
