package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.suite.SuiteConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How {@code ./gpumeter up}'s options shape the suite before anything starts. */
class UpCommandTest {

    @TempDir
    Path root;

    private SuiteConfig config(String... args) {
        return UpCommand.suiteBuilder(UpCommand.parse(List.of(args)), root, Map.of()).config();
    }

    @Test
    void servicesListenOnLoopbackUnlessToldOtherwise() {
        assertEquals("127.0.0.1", config().listenAddress());
        assertEquals("127.0.0.1", config("--demo").listenAddress());
        assertEquals("0.0.0.0", config("--listen", "0.0.0.0").listenAddress());
        assertEquals("::1", config("--listen=::1").listenAddress());
        assertEquals("192.168.1.20", config("--base-port", "9000", "--listen", "192.168.1.20").listenAddress());
    }

    @Test
    void aListenAddressThatIsNoAddressIsAUsageError() {
        UsageException e = assertThrows(UsageException.class, () -> config("--listen", "0.0.0.0 --fresh"));
        assertTrue(e.getMessage().startsWith("--listen: "), e.getMessage());
        assertThrows(UsageException.class, () -> config("--listen", " "));
        assertThrows(UsageException.class, () -> config("--listen"), "--listen needs a value");
    }
}
