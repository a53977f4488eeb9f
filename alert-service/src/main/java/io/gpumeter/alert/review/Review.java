package io.gpumeter.alert.review;

import io.gpumeter.common.triage.InputBundle;
import io.gpumeter.common.triage.Triage;

import java.time.Instant;

/**
 * One stored version of an incident's review: what was decided, by whom and when, and what the suite knew then —
 * the ledger's incident, the triage answer with its evidence, and (for a regression case) the inputs the triage read,
 * redacted to the incident's tenant — each as computed when the version was written.
 *
 * @param versions    how many versions the incident's review has (this one is the newest when equal to version)
 * @param triage      null when no service could triage the incident's subject; {@code triageNote} says why
 * @param inputs      null unless a regression case asked for them; {@code inputsNote} says what was left out or why none
 */
public record Review(String incidentId, int version, int versions, String contentHash, ReviewInput decision,
                     String reviewer, Instant reviewedAt, IncidentRef incident, Triage triage, String triageNote,
                     InputBundle inputs, String inputsNote) {
}
