// The kiosk500 benchmark scene (../../../shared/facts/physics.md) in Box2D 2.4, the anchor the
// Dynamics engine is measured against. Benchmark only: never linked into the kiosk.
#ifndef CBOX2DSCENE_H
#define CBOX2DSCENE_H
#ifdef __cplusplus
extern "C" {
#endif

/// Builds the scene, runs `steps` steps of 1/60 s (8 velocity, 3 position iterations) and
/// returns the mean wall time per step in milliseconds (stepping only). `escaped` receives the
/// number of bodies outside the container at the end (|x| > 11 or y < 0). With `sleeping`,
/// `asleep_at_s` receives the simulated time at which every body slept (-1 if never).
/// `nudge` 0 is the scene as specified; 1, 2, … move each body's start by a few micrometres
/// along x (`kiosk500_nudge_m`): the same scene on another trajectory of the chaotic pile.
double kiosk500_box2d_ms_per_step(int steps, int sleeping, int nudge, int *escaped, double *asleep_at_s);

/// Body `body`'s x offset in metres for trajectory `nudge` (0 for nudge 0): −3 … +3 µm.
double kiosk500_nudge_m(int body, int nudge);

#ifdef __cplusplus
}
#endif
#endif
