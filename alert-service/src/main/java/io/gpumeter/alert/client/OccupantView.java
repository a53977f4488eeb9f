package io.gpumeter.alert.client;

import java.time.Instant;

/** The fields of the ledger's occupant rows that the rules read. */
public record OccupantView(String node, String gpuUuid, String namespace, String pod, String tenant, Instant since) {
}
