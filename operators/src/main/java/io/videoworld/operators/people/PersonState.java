package io.videoworld.operators.people;

import io.videoworld.engines.people.PoseActivities;

/**
 * One tracked person's keyed state: its latest posed sample (motion is measured from it), its
 * two growing activities (posture or motion; a raised hand) and, with faces on, its faces so far.
 *
 * @param last latest sample with a pose
 * @param main posture or motion run, or null
 * @param hand raised-hand run, or null
 * @param faces the faces seen so far, or null
 */
public record PersonState(PoseActivities.Sample last, PoseActivities.Run main, PoseActivities.Run hand, PersonFaces faces) {}
