package io.gpumeter.ledger.governance.service;

import io.gpumeter.ledger.config.GovernanceConfig;
import io.gpumeter.ledger.governance.domain.MigLayouts;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The layout files gpumeter.ledger.mig.layout-files names are read over the GPU Operator's defaults, or stop the start. */
class MigLayoutFilesTest {

    static GovernanceConfig.Mig files(List<String> paths) {
        return new GovernanceConfig.Mig() {
            @Override
            public Duration grace() {
                return Duration.ofMinutes(10);
            }

            @Override
            public Duration instanceStaleness() {
                return Duration.ofMinutes(5);
            }

            @Override
            public String recheckEvery() {
                return "off";
            }

            @Override
            public Optional<List<String>> layoutFiles() {
                return Optional.of(paths);
            }
        };
    }

    @Test
    void aClustersFileIsReadOverTheDefaults() throws URISyntaxException {
        String file = Path.of(MigLayoutFilesTest.class.getResource("/mig/custom-mig-parted.yaml").toURI()).toString();
        MigLayouts layouts = MigBooks.layouts(files(List.of(file)));
        assertEquals(Map.of("1g.10gb", 28), layouts.find("half-1g.10gb").orElseThrow().exactTotals().orElseThrow());
        assertTrue(layouts.find("all-7g.80gb").isPresent());
    }

    @Test
    void aFileThatCannotBeReadStopsTheStartNamingIt() {
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> MigBooks.layouts(files(List.of("/nonexistent/mig-parted.yaml"))));
        assertTrue(e.getMessage().contains("/nonexistent/mig-parted.yaml"), e.getMessage());
    }
}
