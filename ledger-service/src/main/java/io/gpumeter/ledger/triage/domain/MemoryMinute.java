package io.gpumeter.ledger.triage.domain;

import java.time.Instant;

/**
 * The most one memory series of a card read in one minute, as the usage rollups keep it.
 *
 * @param scope    DEVICE (the card), CONTAINER (HAMi's per-container series, scopeKey {@code ns/pod/container}) or
 *                 PROCESS (nvidia-smi's per-process series, scopeKey {@code ns/pod/container/pid} or a bare pid)
 * @param field    FB_USED_MIB, FB_FREE_MIB, FB_RESERVED_MIB, VGPU_MEMORY_USED_MIB or VGPU_MEMORY_LIMIT_MIB
 */
public record MemoryMinute(String gpuUuid, String scope, String scopeKey, String field, Instant minute, double maxMib) {

    /** The pod ({@code ns/pod}) a per-container or per-process series belongs to, or null. */
    public String podKey() {
        if (!"CONTAINER".equals(scope) && !"PROCESS".equals(scope)) {
            return null;
        }
        String[] parts = scopeKey.split("/");
        if ("CONTAINER".equals(scope) ? parts.length < 2 : parts.length < 4) {
            return null;
        }
        return parts[0] + "/" + parts[1];
    }
}
