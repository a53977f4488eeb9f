package io.gpumeter.slo.acceptance;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** A cell's pods are priced by billing's line of their model however the model is spelled, as billing matches it. */
class CostFiguresTest {

    @Test
    void spellingsOfOneModelAreOneModel() {
        String deviceplugin = CostFigures.modelKey("NVIDIA-A100-SXM4-80GB");
        assertEquals("nvidia-a100-sxm4-80gb", deviceplugin);
        assertEquals(deviceplugin, CostFigures.modelKey("NVIDIA A100-SXM4-80GB"), "a DRA slice's productName");
        assertEquals(deviceplugin, CostFigures.modelKey(" nvidia_a100  sxm4__80gb- "));
        assertNotEquals(deviceplugin, CostFigures.modelKey("NVIDIA-A100-SXM4-40GB"));
        assertNotEquals(deviceplugin, CostFigures.modelKey("NVIDIA-A100-SXM480GB"));
    }
}
