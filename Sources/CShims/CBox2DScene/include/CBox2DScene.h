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
double kiosk500_box2d_ms_per_step(int steps, int sleeping, int *escaped, double *asleep_at_s);

#ifdef __cplusplus
}
#endif
#endif
