// SPDX-License-Identifier: LGPL-2.1
/*
 * The Intel PT decoder (intel-pt-decode.h): its life, and the runs that decode what was fed
 * region by region, through the flow (intel-pt-flow.c) on the caller's thread or through
 * the workers (intel-pt-par.c).
 */
#include <stdlib.h>

#include <intel-pt.h>
#include <auxtrace/intel-pt-decode.h>

#include <internal/decode-synth.h>
#include <internal/intel-pt-decoder.h>
#include <internal/lib.h>

struct intel_pt_decoder *intel_pt_decoder__new(const struct auxtrace_decode_opts *opts)
{
	struct intel_pt_decoder *dec = calloc(1, sizeof(*dec));
	int err;

	if (!dec)
		return libauxtrace__ptr_err(ENOMEM);
	err = decode_synth__init(&dec->synth, opts, "intel_pt decoder");
	if (!err && !dec->synth.opts.image) {
		pr_err("intel_pt decoder: no image: Intel PT records only where branches go, "
		       "so the code that ran must be given (auxtrace_image__add_file)\n");
		err = -EINVAL;
	}
	if (err) {
		free(dec);
		return libauxtrace__ptr_err(err);
	}
	dec->flow.dec = dec;
	if (dec->synth.opts.nr_threads > 1 && !dec->synth.opts.instructions) {
		dec->par = intel_pt_par__new(&dec->synth.opts, intel_pt_decoder__new,
					     intel_pt_decoder__delete);
		if (!dec->par) {
			intel_pt_decoder__delete(dec);
			return libauxtrace__ptr_err(ENOMEM);
		}
	}
	return dec;
}

void intel_pt_decoder__delete(struct intel_pt_decoder *dec)
{
	if (!dec)
		return;
	intel_pt_par__delete(dec->par);
	intel_pt_flow__close(&dec->flow);
	pt_image_free(dec->pt_image);
	pt_iscache_free(dec->iscache);
	free(dec->regions);
	free(dec->pending);
	free(dec->join);
	free(dec);
}

const struct auxtrace_decode_stats *intel_pt_decoder__stats(const struct intel_pt_decoder *dec)
{
	return &dec->synth.stats;
}

int intel_pt_decoder__set_image(struct intel_pt_decoder *dec, struct auxtrace_image *image)
{
	if (!image)
		return libauxtrace__err(-EINVAL);
	dec->synth.opts.image = image;
	return 0;
}

int intel_pt_decoder__decode(struct intel_pt_decoder *dec, const struct auxtrace_aux_data *data)
{
	struct intel_pt_region region = { .buf = data->data, .size = data->size, .data = *data };
	int err;

	dec->synth.stats.bytes += data->size;
	if (intel_pt_decoder__wants_nothing(dec) || !data->size)
		return 0;
	err = intel_pt_decoder__refresh_image(dec);
	if (!err)
		err = intel_pt_flow__open(&dec->flow, &region);
	if (!err)
		err = intel_pt_flow__run(&dec->flow, UINT64_MAX);
	intel_pt_flow__close(&dec->flow);
	dec->flow.have_prev = false;
	return err < 0 ? libauxtrace__err(err) : 0;
}

int intel_pt_decoder__run(struct intel_pt_decoder *dec, uint64_t until, uint64_t *time)
{
	uint64_t until_tsc = until == UINT64_MAX ? UINT64_MAX
						 : auxtrace_tsc_conv__tsc(&dec->synth.opts.tsc, until);
	int err = intel_pt_decoder__refresh_image(dec);

	while (!err) {
		if (!intel_pt_flow__is_open(&dec->flow)) {
			if (dec->next_region == dec->nr_regions)
				return 0;
			if (dec->par) {
				intel_pt_par__give_out(dec, until_tsc);
				err = intel_pt_par__take(dec, dec->next_region);
				if (err < 0)
					break;
				if (err > 0) {		/* a worker's samples, handed out */
					dec->next_region++;
					err = 0;
					continue;
				}
			}
			err = intel_pt_flow__open(&dec->flow, &dec->regions[dec->next_region++]);
			if (err)
				break;
		}
		err = intel_pt_flow__run(&dec->flow, until_tsc);
		if (err == 1) {
			/*
			 * Paused inside a piece (libipt's time estimates can pass the next PSB's
			 * TSC): no worker may go on with a later one while the caller changes
			 * the image at the pause.
			 */
			intel_pt_par__cancel(dec);
			if (time)
				*time = decode_synth__time(&dec->synth, intel_pt_flow__tsc(&dec->flow));
			return 1;
		}
		if (!err)
			intel_pt_flow__close(&dec->flow);
	}
	intel_pt_par__cancel(dec);	/* stopped by a callback: nothing decodes on */
	return libauxtrace__err(err);
}
