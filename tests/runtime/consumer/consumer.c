/* consumer.c - Opens a kernel's launch plan with the installed runtime (C
 * API), lists its arguments, binds an input image and the scalars and
 * prints each output's size; no GPU is needed until a launch, which it
 * does not make. PLAN `-` is the one arvr_add_kernel compiled with this
 * program (BLUR_PLAN). Usage: consumer PLAN WIDTH HEIGHT CHANNELS */
#include <arvr/runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  arvr_kernel *k = NULL;
  if (argc != 5) {
    fprintf(stderr, "usage: consumer PLAN WIDTH HEIGHT CHANNELS\n");
    return 2;
  }
  const char *plan = strcmp(argv[1], "-") == 0 ? BLUR_PLAN : argv[1];
  if (arvr_kernel_open(plan, &k) != ARVR_OK) {
    fprintf(stderr, "consumer: %s\n", arvr_last_error());
    return 1;
  }
  int width = atoi(argv[2]), height = atoi(argv[3]), channels = atoi(argv[4]);
  printf("kernel %s\n", arvr_kernel_name(k));
  for (int i = 0; i < arvr_kernel_num_args(k); ++i) {
    arvr_arg_info info;
    arvr_kernel_arg_info(k, i, &info);
    printf("arg %d %s %s %s %s\n", i, info.name,
           info.is_output ? "output" : "input",
           info.is_image ? "image" : "scalar", info.type);
    if (info.is_image && !info.is_output)
      arvr_kernel_bind_image(k, i, 0x100000, width, height, channels);
    else if (!info.is_image && strcmp(info.type, "f32") == 0)
      arvr_kernel_bind_f32(k, i, 2.0f);
    else if (!info.is_image)
      arvr_kernel_bind_i32(k, i, 4);
  }
  for (int i = 0; i < arvr_kernel_num_args(k); ++i) {
    arvr_arg_info info;
    int w, h, c;
    arvr_kernel_arg_info(k, i, &info);
    if (!info.is_output)
      continue;
    if (arvr_kernel_output_size(k, i, &w, &h, &c) != ARVR_OK) {
      fprintf(stderr, "consumer: %s\n", arvr_last_error());
      arvr_kernel_close(k);
      return 1;
    }
    printf("output %s %dx%dx%d\n", info.name, w, h, c);
  }
  arvr_kernel_close(k);
  return 0;
}
